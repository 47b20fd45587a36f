import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { indexWords, urnKeys, valueText } from '@catalog/search'
import { ContractFixture, ds, tag } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { parseIds } from './cache-sources.js'
import { RowBuffer } from './row-buffer.js'
import { SqliteSearchIndex } from './sqlite-search-index.js'
import { ValueAnalysis } from './value-analysis.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-bulk-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const fileOf = () => join(dir, `bulk-${Math.random()}.db`)
const indexesOf = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
      .pluck()
      .all()
  } finally {
    db.close()
  }
}

function open(t: Test, file = fileOf()) {
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  return { fx, index, file }
}

/** 150 datasets (over two multi-row statements of exact values and URN keys), 3 of them tagged. */
const many = (fx: ContractFixture) =>
  Array.from({ length: 150 }, (_, i) =>
    fx.dataset(`db.t${i}`, i % 50 === 0 ? { globalTags: tag('Gold') } : {}, i % 2 === 0 ? 'hive' : 'kafka'),
  ).flat()

t.test(
  'a bulk build drops the query-only indexes and creates them at its end, with the same answers',
  async (t) => {
    const { fx, index, file } = open(t)
    const all = indexesOf(file)
    t.ok(all.includes('docs_by_type'), 'a new index has it')
    t.notOk(all.includes('urn_keys_by_doc'), 'URN keys have no index by document')
    t.notOk(all.includes('exact_by_value'), 'exact values have no index by value: their key is')
    t.same(index.beginBulk(150), ['docs_by_type'])
    t.same(
      indexesOf(file).filter((n) => n === 'docs_by_type'),
      [],
    )
    await fx.apply(index, many(fx))
    const during = await fx.search(index, 'platform:kafka')
    t.equal(during.total, 75, 'queries answer during the build')
    index.endBulk()
    t.same(indexesOf(file), all)
    const after = await fx.search(index, 'platform:kafka')
    t.equal(after.total, 75)
    t.same(await fx.urns(index, 'tags:Gold'), [ds('db.t0'), ds('db.t50', 'hive'), ds('db.t100')])
    t.same((await fx.search(index, '*')).facets?.find((f) => f.field === 'platform')?.values, [
      { value: 'urn:li:dataPlatform:hive', count: 75 },
      { value: 'urn:li:dataPlatform:kafka', count: 75 },
    ])
  },
)

/** The FTS5 `hashsize` stored in an index file (undefined: FTS5's default). */
const ftsHashSize = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare("SELECT v FROM fts_config WHERE k = 'hashsize'").pluck().get()
  } finally {
    db.close()
  }
}

t.test('a bulk build writes each page of words as one FTS segment, and ends with the default', async (t) => {
  const { fx, index, file } = open(t)
  index.beginBulk(150)
  t.equal(ftsHashSize(file), 64 * 1024 * 1024, 'pending words kept up to 64 MB during the build')
  await fx.apply(index, many(fx))
  t.equal((await fx.search(index, 'db')).total, 150)
  index.endBulk()
  t.equal(ftsHashSize(file), 1024 * 1024, "FTS5's default afterwards")
  t.equal((await fx.search(index, 'db')).total, 150)
})

t.test('a bulk build into an index larger than it drops nothing', async (t) => {
  const { fx, index, file } = open(t)
  await fx.apply(index, many(fx))
  t.same(index.beginBulk(10), [])
  t.ok(indexesOf(file).includes('docs_by_type'))
})

t.test(
  'a bulk build killed before its end leaves nothing missing once the index is opened again',
  async (t) => {
    const file = fileOf()
    const first = open(t, file)
    const all = indexesOf(file)
    first.index.beginBulk(1_000)
    await first.fx.apply(first.index, many(first.fx))
    await first.index.close()
    t.notOk(indexesOf(file).includes('docs_by_type'))
    const again = open(t, file)
    t.same(indexesOf(file), all)
    t.equal((await again.fx.search(again.index, 'platform:kafka')).total, 75)
  },
)

t.test('a rewritten or removed document no longer answers to its old URN keys', async (t) => {
  const { fx, index } = open(t)
  const urn = ds('orders')
  await fx.apply(index, [
    ...fx.dataset('orders', {
      upstreamLineage: { upstreams: [{ dataset: ds('raw_orders', 'kafka'), type: 'COPY' }] },
    }),
  ])
  t.same(await fx.urns(index, 'upstreams:raw_orders'), [urn], 'a key of the upstream URN')
  await fx.apply(index, [
    fx.upsert(urn, 'upstreamLineage', { upstreams: [{ dataset: ds('raw_refunds', 'kafka'), type: 'COPY' }] }),
  ])
  t.same(await fx.urns(index, 'upstreams:raw_orders'), [], 'the old key is gone')
  t.same(await fx.urns(index, 'upstreams:raw_refunds'), [urn])
  await fx.apply(index, [fx.remove(urn, 'datasetKey', true)])
  t.same(await fx.urns(index, 'upstreams:raw_refunds'), [], 'a removed document keeps no key')
  t.same(await fx.urns(index, 'platform:hive'), [])
})

t.test('buffered rows are written 64 to a statement, the rest on flush; cleared rows never', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  db.exec('CREATE TABLE r (a INTEGER PRIMARY KEY, b TEXT)')
  const rows = new RowBuffer(db, 'INSERT OR IGNORE INTO r (a, b) VALUES (?, ?)', 2)
  const count = () => db.prepare('SELECT count(*) FROM r').pluck().get()
  for (let i = 0; i < 130; i++) rows.add(i, `v${i}`)
  t.equal(count(), 128, 'two full statements written')
  rows.add(1, 'duplicate')
  rows.flush()
  t.equal(count(), 130, 'the rest on flush; a duplicate is ignored as with one row per statement')
  rows.add(500, 'x')
  rows.clear()
  rows.flush()
  t.equal(count(), 130, 'cleared rows are not written')
  t.equal(db.prepare('SELECT b FROM r WHERE a = 1').pluck().get(), 'v1')
})

t.test('memoized value analysis gives what the analysis gives', async (t) => {
  const a = new ValueAnalysis(new Set())
  for (const v of [ds('SampleHiveDataset'), 'urn:li:tag:Legacy', 'covid19 cases', 'x'.repeat(300)]) {
    for (let i = 0; i < 2; i++) {
      t.same(a.words(v), indexWords(valueText(v)), `words of ${v.slice(0, 40)}`)
      t.same(a.keys(v), v.startsWith('urn:') ? urnKeys(v) : [], `keys of ${v.slice(0, 40)}`)
    }
  }
})

t.test('joined facet ids are read back as numbers', async (t) => {
  t.same(parseIds('3,14,159,0,26535'), [3, 14, 159, 0, 26535])
  t.same(parseIds('7'), [7])
  t.same(parseIds(''), [])
})

t.test('changes given as JSON text are applied as the objects would be', async (t) => {
  const { fx, index } = open(t)
  const entries = fx.dataset('ledger', { datasetProperties: { description: 'payments ledger' } })
  const result = await index.applyJson(JSON.stringify(fx.deriver.changes(entries)), 42)
  t.equal(result.cursor, 42)
  t.ok(result.documentsChanged === 1)
  t.same(await fx.urns(index, 'payments'), [ds('ledger')])
})

t.test('a layout rebuild rewrites every derived row and keeps the query-only indexes', async (t) => {
  const file = fileOf()
  const first = open(t, file)
  await first.fx.apply(first.index, many(first.fx))
  await first.index.close()
  const all = indexesOf(file)
  const raw = new Database(file)
  raw.prepare("UPDATE meta SET value = '{\"layout\":3}' WHERE key = 'layout'").run()
  raw.exec('DELETE FROM exact; DELETE FROM urn_keys')
  raw.close()
  const again = open(t, file)
  t.same(indexesOf(file), all)
  t.equal((await again.fx.search(again.index, 'platform:kafka')).total, 75, 'URN keys rebuilt')
  t.equal(
    (
      await again.fx.search(again.index, '*', {
        filter: { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:hive' }] }] },
      })
    ).total,
    75,
    'exact values rebuilt',
  )
})

t.test(
  'an index written under other exact fields is rebuilt on open; one that predates the record is not',
  async (t) => {
    const file = fileOf()
    const first = open(t, file)
    await first.fx.apply(first.index, many(first.fx))
    await first.index.close()
    const stale = (exact: string | undefined) => {
      const raw = new Database(file)
      if (exact === undefined) raw.prepare("DELETE FROM meta WHERE key = 'exact'").run()
      else raw.prepare("UPDATE meta SET value = ? WHERE key = 'exact'").run(exact)
      // A key an older model wrote for a field that is no longer exact.
      raw.prepare("INSERT OR IGNORE INTO urn_keys (field, key, doc_id) VALUES (1, 'stale', 1)").run()
      raw.close()
    }
    const staleKeys = () => {
      const raw = new Database(file, { readonly: true })
      try {
        return raw.prepare("SELECT count(*) FROM urn_keys WHERE key = 'stale'").pluck().get()
      } finally {
        raw.close()
      }
    }
    stale(undefined)
    await open(t, file).index.close()
    t.equal(staleKeys(), 1, 'no record: kept as it is')
    stale('["someOldField"]')
    const again = open(t, file)
    t.equal(staleKeys(), 0, 'rebuilt from the stored documents')
    t.equal((await again.fx.search(again.index, 'platform:kafka')).total, 75)
  },
)
