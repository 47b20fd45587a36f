import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { EmptyReads } from './empty-reads.js'
import { SqliteSearchIndex } from './sqlite-search-index.js'

t.test('remembers empty reads of whole words until one is written into their columns', async (t) => {
  const e = new EmptyReads()
  e.add('f_id f_name', '"team"')
  e.add('f_id f_name', '("payments" OR "payment")')
  e.add('f_id f_name', '"pay" *')
  t.ok(e.has('f_id f_name', '"team"'))
  t.ok(e.has('f_id f_name', '("payments" OR "payment")'))
  t.notOk(e.has('f_id f_name', '"pay" *'), 'a prefix is never remembered')
  e.add('f_id f_name', '"café"')
  t.notOk(e.has('f_id f_name', '"café"'), 'nor a word past ASCII')
  t.notOk(e.has('f_id', '"team"'), 'other columns are another read')
  e.wrote('f_description', ['team', 'payment'])
  t.ok(e.has('f_id f_name', '"team"'), 'a word written into another column changes nothing')
  e.wrote('f_name', ['payment'])
  t.notOk(e.has('f_id f_name', '("payments" OR "payment")'), 'one of its words written into its column')
  t.ok(e.has('f_id f_name', '"team"'))
  e.reset()
  t.notOk(e.has('f_id f_name', '"team"'))
})

// The MATCH expressions the index reads, to see which reads a query makes.
const matches: string[] = []
const prepare = Database.prototype.prepare
Database.prototype.prepare = function (this: Database.Database, sql: string) {
  const statement = prepare.call(this, sql)
  if (!sql.includes('group_concat(doc_id)')) return statement
  const get = statement.get.bind(statement) as (...args: unknown[]) => unknown
  statement.get = (...args: unknown[]) => {
    if (typeof args[0] === 'string') matches.push(args[0])
    return get(...args)
  }
  return statement
} as typeof prepare
t.teardown(() => {
  Database.prototype.prepare = prepare
})

t.test('a word in no name is not read in the names again, until a name has it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-empty-reads-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({ file: join(dir, 'index.db'), schema: fx.schema })
  t.teardown(() => index.close())
  for (let i = 0; i < 20; i++)
    await fx.apply(
      index,
      fx.dataset(`ds_${i}`, { datasetProperties: { description: `the gadget team of ${i}` } }),
    )
  const inNames = (m: string) => m.startsWith('{f_id f_name f_qualifiedName}') && m.includes('"team"')
  matches.length = 0
  t.same((await fx.urns(index, 'gadget team')).slice(0, 2), [ds('ds_0'), ds('ds_1')], 'in id order')
  t.ok(matches.some(inNames), 'the first search reads "team" in the names')
  matches.length = 0
  await fx.urns(index, 'gadget team')
  t.notOk(matches.some(inNames), 'the next one does not')

  await fx.urns(index, 'team')
  await fx.apply(index, fx.dataset('team_gadgets', { datasetProperties: { description: 'n/a' } }))
  t.equal((await fx.urns(index, 'team'))[0], ds('team_gadgets'), 'the name match comes first')
  const ac = await index.autocomplete(
    fx.requests.autocomplete({ query: 'team', entityType: 'dataset', limit: 3 }),
  )
  t.equal(ac.suggestions[0]?.urn, ds('team_gadgets'), 'autocomplete finds it too')
})

t.test('autocomplete remembers words in no best field and sees a later name', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-empty-reads-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({ file: join(dir, 'index.db'), schema: fx.schema })
  t.teardown(() => index.close())
  // More platform matches than the candidates of a page of 3 (30): a later name is a candidate
  // only as a best-field match.
  for (let i = 0; i < 40; i++)
    await fx.apply(index, fx.dataset(`stream_${i}`, { datasetProperties: { description: 'n/a' } }, 'kafka'))
  const ac = async (query: string) =>
    (await index.autocomplete(fx.requests.autocomplete({ query, entityType: 'dataset', limit: 3 })))
      .suggestions
  const inBest = (m: string) => m.startsWith('{f_name f_id f_qualifiedName}') && m.includes('"kafka"')
  matches.length = 0
  t.same(
    (await ac('kafka')).map((s) => s.text),
    ['kafka', 'kafka', 'kafka'],
  )
  t.ok(matches.some(inBest), 'the first autocomplete reads the best fields')
  matches.length = 0
  await ac('kafka')
  t.notOk(matches.some(inBest), 'the next one does not')
  await fx.apply(index, fx.dataset('kafka_mirror', { datasetProperties: { description: 'n/a' } }, 'kafka'))
  t.equal((await ac('kafka'))[0]?.urn, ds('kafka_mirror', 'kafka'), 'a new name with the word comes first')
})
