import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds, tag } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { bulkDocuments as documents } from './bulk-documents.fixture.js'
import { BulkPageBuilder } from './bulk-page.js'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-staging-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const fileOf = () => join(dir, `index-${n++}.db`)

const upstreams = (...names: string[]) => ({
  upstreams: names.map((name) => ({ dataset: ds(name), type: 'TRANSFORMED' })),
})
const catalog = (fx: ContractFixture) =>
  Array.from({ length: 40 }, (_, i) =>
    fx.dataset(
      `db.t${i}`,
      { globalTags: i % 4 === 0 ? tag('Gold') : tag('Silver'), upstreamLineage: upstreams(`raw.r${i}`) },
      i % 2 === 0 ? 'hive' : 'kafka',
    ),
  ).flat()

/** Every exact value and URN key by URN and field name, sorted; and whether staging tables exist. */
function rows(file: string): { rows: string[]; staged: number } {
  const db = new Database(file, { readonly: true })
  try {
    const all = (sql: string) => db.prepare(sql).raw().all() as unknown[][]
    const staged = db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_staged'").pluck().get()
    return {
      rows: [
        ...all(
          'SELECT d.urn, f.name, e.value, e.variant, e.num FROM exact e JOIN docs d ON d.id = e.doc_id JOIN fields f ON f.id = e.field',
        ),
        ...all(
          'SELECT d.urn, f.name, k.key FROM urn_keys k JOIN docs d ON d.id = k.doc_id JOIN fields f ON f.id = k.field',
        ),
      ]
        .map((r) => JSON.stringify(r))
        .sort(),
      staged: staged as number,
    }
  } finally {
    db.close()
  }
}

/** Adds the catalog's documents to `index` in pages of 10. */
async function bulk(fx: ContractFixture, index: SqliteSearchIndex) {
  const builder = new BulkPageBuilder(fx.schema)
  for (const [urn, doc] of documents(fx, catalog(fx))) {
    builder.add(urn, doc.type, doc.parts)
    if (builder.size === 10) await index.applyBulk(builder.take(), 1)
  }
  if (builder.size > 0) await index.applyBulk(builder.take(), 1)
}

const changes = (fx: ContractFixture) => [
  fx.upsert(ds('db.t0'), 'globalTags', tag('Bronze')),
  fx.upsert(ds('db.t1', 'kafka'), 'upstreamLineage', upstreams('raw.other')),
  fx.remove(ds('db.t2'), 'datasetKey', true),
]

t.test(
  'a bulk build stages its rows by document and moves them at its end, changes made meanwhile kept',
  async (t) => {
    const fx = new ContractFixture()
    const file = fileOf()
    const index = new SqliteSearchIndex({ file, schema: fx.schema })
    t.teardown(() => index.close())
    t.same(index.beginBulk(40), ['docs_by_type'])
    await bulk(fx, index)
    t.equal(rows(file).staged, 2, 'staging tables during the build')
    t.same(rows(file).rows, [], 'nothing in the tables yet')
    // Documents changed and removed during the build.
    await fx.apply(index, changes(fx))
    index.endBulk()
    const after = rows(file)
    t.equal(after.staged, 0, 'staging tables dropped')
    const free = new Database(file, { readonly: true })
    t.equal(free.pragma('freelist_count', { simple: true }), 0, 'their pages given back')
    free.close()

    const applied = fileOf()
    const a = new SqliteSearchIndex({ file: applied, schema: fx.schema })
    await fx.apply(a, [...catalog(fx), ...changes(fx)])
    await a.close()
    t.same(after.rows, rows(applied).rows, 'the rows that applying the same changes writes')
    t.same(await fx.urns(index, 'tags:Bronze'), [ds('db.t0')])
    t.same(await fx.urns(index, 'upstreams:raw.other'), [ds('db.t1', 'kafka')])
    t.same(await fx.urns(index, 'upstreams:raw.r1'), [])
    t.equal((await fx.search(index, 'platform:hive')).total, 19)
    t.equal((await fx.search(index, 'tags:Gold')).total, 9)
  },
)

t.test('rows a killed bulk build left staged are moved when the index opens', async (t) => {
  const fx = new ContractFixture()
  const file = fileOf()
  const first = new SqliteSearchIndex({ file, schema: fx.schema })
  first.beginBulk(40)
  await bulk(fx, first)
  await first.close()
  t.equal(rows(file).staged, 2)
  const again = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => again.close())
  t.equal(rows(file).staged, 0, 'staging tables gone')
  t.equal((await fx.search(again, 'platform:kafka')).total, 20)
  t.equal((await fx.search(again, 'tags:Gold')).total, 10)
  t.same(await fx.urns(again, 'upstreams:raw.r3'), [ds('db.t3', 'kafka')])
})

t.test('a bulk build into an index larger than it stages nothing', async (t) => {
  const fx = new ContractFixture()
  const file = fileOf()
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  await fx.apply(index, catalog(fx))
  t.same(index.beginBulk(5), [])
  await bulk(fx, index)
  t.equal(rows(file).staged, 0)
  t.equal((await fx.search(index, 'tags:Gold')).total, 10, 'rows written to their tables at once')
  index.endBulk()
})
