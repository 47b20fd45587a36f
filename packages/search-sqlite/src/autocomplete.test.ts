import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

/**
 * Autocomplete on a catalog larger than its scan: it reads the matches of a broad prefix only as
 * far as the answer needs, and answers as if it had read the first 2,000 matches whole.
 */
const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-autocomplete-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

// Counts the ids the index reads from its word lists: every such read is one `group_concat` row.
let idsRead = 0
const prepare = Database.prototype.prepare
Database.prototype.prepare = function (this: Database.Database, sql: string) {
  const statement = prepare.call(this, sql)
  if (!sql.includes('group_concat(doc_id)')) return statement
  const get = statement.get.bind(statement) as (...args: unknown[]) => unknown
  statement.get = (...args: unknown[]) => {
    const text = get(...args)
    if (typeof text === 'string') idsRead += text.split(',').length
    return text
  } // pluck() returns the same statement, so the wrapper stays
  return statement
} as typeof prepare
t.teardown(() => {
  Database.prototype.prepare = prepare
})

const fx = new ContractFixture()
const index = new SqliteSearchIndex({ file: join(dir, 'index.db'), schema: fx.schema })
t.teardown(() => index.close())

t.before(async () => {
  // 2,400 datasets on kafka, named without the word; a name with it at the 1,500th, another at
  // the 2,300th (past the first 2,000 matches of `kafk`); 3,000 named orders_<n>.
  const entries = Array.from({ length: 2_400 }, (_, i) =>
    fx.dataset(
      i === 1_499 ? 'kafka_early' : i === 2_299 ? 'kafka_late' : `stream_${i}`,
      { datasetProperties: { description: 'n/a' } },
      'kafka',
    ),
  ).flat()
  for (let i = 0; i < 3_000; i++) entries.push(...fx.dataset(`orders_${i}`, {}, 'hive'))
  for (let i = 0; i < entries.length; i += 1_000) await fx.apply(index, entries.slice(i, i + 1_000))
})

const ac = (query: string, limit = 10, extra: { filter?: unknown } = {}) =>
  index.autocomplete(fx.requests.autocomplete({ query, entityType: 'dataset', limit, ...(extra as object) }))

t.test('a broad prefix reads a few dozen ids, not the whole scan', async (t) => {
  await ac('orders') // loads the vocabulary and facet values
  idsRead = 0
  const page = await ac('orde')
  t.equal(page.suggestions.length, 10)
  t.ok(
    page.suggestions.every((s) => s.text.startsWith('orders_')),
    'names starting with the query',
  )
  t.ok(idsRead > 0 && idsRead <= 200, `ids read: ${idsRead} (the whole scan would be 2,000)`)
})

t.test('the name match within the first 2,000 matches comes first; one past them is not seen', async (t) => {
  idsRead = 0
  const page = await ac('kafk', 5)
  t.equal(page.suggestions[0]?.urn, ds('kafka_early', 'kafka'), 'the name match first')
  t.equal(page.suggestions[0]?.text, 'kafka_early')
  t.notOk(
    page.suggestions.some((s) => s.urn === ds('kafka_late', 'kafka')),
    'the match past the first 2,000 is not a candidate',
  )
  t.same(
    page.suggestions.slice(1).map((s) => s.text),
    ['kafka', 'kafka', 'kafka', 'kafka'],
    'then the platform matches',
  )
  t.ok(idsRead <= 2_100, `ids read: ${idsRead}`)
})

t.test('a filter gives the same answer through the documents', async (t) => {
  const filter = { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:kafka' }] }] }
  const page = await ac('kafk', 5, { filter })
  t.equal(page.suggestions[0]?.urn, ds('kafka_early', 'kafka'))
  t.notOk(page.suggestions.some((s) => s.urn === ds('kafka_late', 'kafka')))
  t.equal(page.suggestions.length, 5)
  const hive = { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:hive' }] }] }
  t.same((await ac('kafk', 5, { filter: hive })).suggestions, [], 'no hive dataset matches')
  const late = await ac('kafka_late', 5, { filter })
  t.same(
    late.suggestions.map((s) => s.urn),
    [ds('kafka_late', 'kafka')],
    'a narrower query reaches it',
  )
})
