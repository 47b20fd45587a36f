import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds, tag } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { bulkDocuments as documents } from './bulk-documents.fixture.js'
import { type BulkEntity, wholeDocument } from './bulk-entity.js'
import { BulkPageBuilder, packBulkPage } from './bulk-page.js'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-bulk-page-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const fileOf = () => join(dir, `index-${n++}.db`)

const lineage = (...names: string[]) => ({
  upstreams: names.map((name) => ({
    dataset: ds(name),
    type: 'TRANSFORMED',
    auditStamp: { time: 0, actor: 'urn:li:corpuser:x' },
  })),
})

/** Every row of an index by URN and field name (not ids), sorted; FTS rows by their words per column. */
function contents(file: string): string[] {
  const db = new Database(file, { readonly: true })
  try {
    db.exec("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, fts, 'instance')")
    const all = (sql: string) => db.prepare(sql).raw().all() as unknown[][]
    return [
      ...all('SELECT urn, entity_type, removed, parts FROM docs'),
      ...all(
        'SELECT d.urn, f.name, e.value, e.variant, e.num FROM exact e JOIN docs d ON d.id = e.doc_id JOIN fields f ON f.id = e.field',
      ),
      ...all(
        'SELECT d.urn, f.name, k.key FROM urn_keys k JOIN docs d ON d.id = k.doc_id JOIN fields f ON f.id = k.field',
      ),
      ...all('SELECT * FROM browse_nodes WHERE docs <> 0 OR below <> 0'),
      ...all('SELECT d.urn, v.term, v.col, v.offset FROM temp.words v JOIN docs d ON d.id = v.doc'),
    ]
      .map((r) => JSON.stringify(r))
      .sort()
  } finally {
    db.close()
  }
}

const catalog = (fx: ContractFixture) => [
  ...fx.dataset('db.orders', {
    globalTags: tag('PII'),
    upstreamLineage: lineage('raw_orders', 'db.customers'),
    datasetProperties: { description: 'Daily ORDERS by Customer' },
  }),
  ...fx.dataset('db.customers', {
    globalTags: { tags: [{ tag: 'urn:li:tag:Gold' }, { tag: 'urn:li:tag:gold' }] },
  }),
  ...fx.dataset(
    'stream.clicks',
    { status: { removed: true }, browsePaths: { paths: ['/prod/kafka/a'] } },
    'kafka',
  ),
  ...Array.from({ length: 150 }, (_, i) => fx.dataset(`db.t${i}`, {}, i % 2 === 0 ? 'hive' : 'kafka')).flat(),
]

t.test('a bulk page writes the rows that applying the same documents writes', async (t) => {
  const fx = new ContractFixture()
  const entries = catalog(fx)
  const applied = fileOf()
  const a = new SqliteSearchIndex({ file: applied, schema: fx.schema })
  await fx.apply(a, entries)
  await a.close()

  const bulk = fileOf()
  const b = new SqliteSearchIndex({ file: bulk, schema: fx.schema })
  const builder = new BulkPageBuilder(fx.schema)
  for (const [urn, doc] of documents(fx, entries)) builder.add(urn, doc.type, doc.parts)
  t.equal(builder.size, 153)
  const result = await b.applyBulk(builder.take(), 7)
  t.same(result, { documentsChanged: 153, cursor: 7 })
  t.equal(builder.size, 0, 'the next page starts empty')
  t.same(await fx.urns(b, 'tags:pii'), [ds('db.orders')])
  t.same(await fx.urns(b, 'upstreams:raw_orders'), [ds('db.orders')])
  t.same(await fx.urns(b, 'customer'), [ds('db.customers'), ds('db.orders')].sort())
  t.equal((await fx.search(b, 'platform:kafka')).total, 75, 'the soft-deleted dataset is not found')
  await b.close()
  t.same(
    contents(bulk),
    contents(applied),
    'the same documents, exact values, URN keys, browse counts and words',
  )
})

t.test('small pages packed as bytes write what one page writes, in one transaction', async (t) => {
  const fx = new ContractFixture()
  const docs = [...documents(fx, catalog(fx))]
  const whole = fileOf()
  const a = new SqliteSearchIndex({ file: whole, schema: fx.schema })
  const one = new BulkPageBuilder(fx.schema)
  for (const [urn, doc] of docs) one.add(urn, doc.type, doc.parts)
  await a.applyBulk(one.take(), 5)
  await a.close()

  const packed = fileOf()
  const b = new SqliteSearchIndex({ file: packed, schema: fx.schema })
  const builder = new BulkPageBuilder(fx.schema)
  const pages: Uint8Array[] = []
  for (let i = 0; i < docs.length; i += 40) {
    for (const [urn, doc] of docs.slice(i, i + 40)) builder.add(urn, doc.type, doc.parts)
    pages.push(packBulkPage(builder.take()))
  }
  t.equal(pages.length, 4)
  // A bad last page: nothing of the write lands, the cursor stays.
  const bad = builder.take()
  await t.rejects(b.applyBulk([...pages, packBulkPage({ ...bad, names: [] })], 9), {
    message: /other name codes/,
  })
  t.equal(await b.cursor(), 0, 'the cursor did not move')
  t.equal(await b.document(ds('db.orders')), undefined, 'no page of the write landed')
  t.same(await b.applyBulk(pages, 5), { documentsChanged: docs.length, cursor: 5 })
  t.same(await fx.urns(b, 'tags:pii'), [ds('db.orders')])
  await b.close()
  t.same(contents(packed), contents(whole), 'the same documents, rows, browse counts and words')
})

t.test('a page replaces the documents the index has, and removes those it has none for', async (t) => {
  const fx = new ContractFixture()
  const before = [
    ...fx.dataset('db.orders', { globalTags: tag('PII'), upstreamLineage: lineage('up_a') }),
    ...fx.dataset('db.gone', { globalTags: tag('Gold') }),
    ...fx.dataset('db.kept', {}),
  ]
  const after = [
    ...fx.dataset('db.orders', { globalTags: tag('Silver'), upstreamLineage: lineage('up_b') }),
    ...fx.dataset('db.new', { status: { removed: true } }),
  ]
  // Applied one by one: the import's result, written as the change log would write it.
  const applied = fileOf()
  const a = new SqliteSearchIndex({ file: applied, schema: fx.schema })
  await fx.apply(a, before)
  await a.apply(
    [
      { kind: 'removeEntity', urn: ds('db.orders') },
      { kind: 'removeEntity', urn: ds('db.gone') },
      ...fx.deriver.changes(after),
    ],
    0,
  )
  await a.close()

  const bulk = fileOf()
  const b = new SqliteSearchIndex({ file: bulk, schema: fx.schema })
  await fx.apply(b, before)
  const builder = new BulkPageBuilder(fx.schema)
  const docs = documents(fx, after)
  for (const [urn, doc] of docs) builder.add(urn, doc.type, doc.parts)
  builder.add(ds('db.gone'), 'dataset', {})
  builder.add(ds('db.never'), 'dataset', {})
  t.match(await b.applyBulk(builder.take(), 3), { documentsChanged: 3 }, 'replaced, new, removed')
  t.same(await fx.urns(b, 'tags:PII'), [], 'the replaced tags are gone')
  t.same(await fx.urns(b, 'tags:Silver'), [ds('db.orders')])
  t.same(await fx.urns(b, 'upstreams:up_a'), [])
  t.same(await fx.urns(b, 'upstreams:up_b'), [ds('db.orders')])
  t.same(await fx.urns(b, 'tags:Gold'), [], 'the removed document is gone')
  t.equal(await b.document(ds('db.never')), undefined)
  t.ok(await b.document(ds('db.kept')), 'a document the page does not name stays')
  await b.close()
  t.same(contents(bulk), contents(applied))
})

t.test('a page built for other analysed fields is refused and changes nothing', async (t) => {
  const fx = new ContractFixture()
  const file = fileOf()
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  await fx.apply(index, fx.dataset('db.orders', {}))
  const cursor = await index.cursor()
  const builder = new BulkPageBuilder(fx.schema)
  for (const [urn, doc] of documents(fx, fx.dataset('db.other', {}))) builder.add(urn, doc.type, doc.parts)
  const page = builder.take()
  await t.rejects(index.applyBulk({ ...page, ftsFields: page.ftsFields.slice(1) }, cursor + 1), {
    message: /other analysed fields/,
  })
  t.equal(await index.cursor(), cursor, 'the cursor did not move')
  t.equal(await index.document(ds('db.other')), undefined)
  t.same(await index.applyBulk(page, cursor + 1), { documentsChanged: 1, cursor: cursor + 1 })
  t.same(await fx.urns(index, 'other'), [ds('db.other')])
})

t.test('whole documents from stored aspect JSON build the page their change-log entries build', async (t) => {
  const fx = new ContractFixture()
  const entries = [
    ...catalog(fx).slice(0, 40),
    fx.upsert(ds('db.orders'), 'globalTags', tag('Late')),
    fx.remove(ds('db.orders'), 'globalTags'),
    fx.remove(ds('db.customers'), 'datasetKey', true),
  ]
  const stored = new Map<string, BulkEntity>()
  for (const e of entries) {
    const entity = stored.get(e.urn) ?? { urn: e.urn, entityType: 'dataset', aspects: [] }
    // A deleted entity has no aspects left in the store.
    const aspects = e.entityDeleted ? [] : entity.aspects.filter((a) => a.aspect !== e.aspect)
    if (e.value) aspects.push({ aspect: e.aspect, valueJson: JSON.stringify(e.value) })
    stored.set(e.urn, { ...entity, aspects })
  }
  // What applying the entries one by one leaves, against what whole documents build.
  const applied = fileOf()
  const a = new SqliteSearchIndex({ file: applied, schema: fx.schema })
  await fx.apply(a, entries)
  await a.close()
  const bulk = fileOf()
  const b = new SqliteSearchIndex({ file: bulk, schema: fx.schema })
  const builder = new BulkPageBuilder(fx.schema)
  for (const entity of stored.values()) {
    const doc = wholeDocument(fx.deriver, entity, 1)
    builder.add(entity.urn, doc.entityType, doc.contributions)
  }
  t.ok(builder.size > 5)
  await b.applyBulk(builder.take(), 1)
  t.same(await fx.urns(b, 'tags:Late'), [], 'the removed aspect is gone')
  t.same(await fx.urns(b, 'tags:PII'), [], 'the aspect it replaced too')
  t.equal(await b.document(ds('db.customers')), undefined, 'the deleted entity has no document')
  t.ok(await b.document(ds('db.orders')))
  await b.close()
  t.same(contents(bulk), contents(applied))
})
