/**
 * The edge scan merges the rows of an edge stored by several aspects without a DISTINCT over the
 * table: pages stay full and in order when the duplicates outnumber the rows read per page.
 */
import type { EdgeKey, EdgeScanQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteEdgeScan } from './sqlite-edge-scan.js'
import { openStoreSchema } from './sqlite-schema.js'

const ALL: EdgeScanQuery = {
  types: [],
  sourceTypes: [],
  destinationTypes: [],
  sourceUrns: [],
  destinationUrns: [],
  count: 30,
  includeSoftDeleted: true,
}

t.test('an edge stored by three aspects is one edge; pages cover every edge once, in order', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  openStoreSchema(db)
  const insert = db.prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)')
  const expected: EdgeKey[] = []
  // Destinations inserted in reverse, so their ids run against their URN order.
  for (let i = 49; i >= 0; i--) {
    const destination = `urn:li:dataset:d${String(i).padStart(2, '0')}`
    for (const aspect of ['upstreamLineage', 'fineGrained', 'other'])
      insert.run('urn:li:dataJob:j', 'Produces', destination, aspect)
    expected.unshift({ source: 'urn:li:dataJob:j', destination, type: 'Produces' })
  }
  const scan = new SqliteEdgeScan(db)
  const seen: EdgeKey[] = []
  let page = scan.scan(ALL)
  seen.push(...page.edges)
  t.equal(page.edges.length, 30, 'the first page is full although 90 rows hold its 30 edges')
  while (page.next) {
    page = scan.scan({ ...ALL, after: page.next })
    seen.push(...page.edges)
  }
  t.same(seen, expected, 'every edge once, by destination URN')
})

t.test('source entity types: pages follow the cursor through the range of those URNs', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  openStoreSchema(db)
  const insert = db.prepare("INSERT INTO edges (source, type, destination, aspect) VALUES (?, 'Rel', ?, 'a')")
  for (let i = 0; i < 12; i++)
    for (const type of ['chart', 'dataset', 'tag', 'corpuser'])
      insert.run(`urn:li:${type}:s${i % 5}`, `urn:li:dataset:d${i}`)
  const scan = new SqliteEdgeScan(db)
  const everything = scan.scan({ ...ALL, count: 1000 }).edges
  for (const sourceTypes of [['chart'], ['tag', 'chart'], ['dataset', 'corpuser']]) {
    const seen: EdgeKey[] = []
    let page = scan.scan({ ...ALL, sourceTypes, count: 4 })
    seen.push(...page.edges)
    while (page.next) {
      page = scan.scan({ ...ALL, sourceTypes, count: 4, after: page.next })
      seen.push(...page.edges)
    }
    const expected = everything.filter((e) => sourceTypes.some((s) => e.source.startsWith(`urn:li:${s}:`)))
    t.equal(expected.length, 12 * sourceTypes.length)
    t.same(seen, expected, sourceTypes.join())
  }
})

t.test('a filter no edge can match answers without the keyset scan', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  openStoreSchema(db)
  db.prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)').run(
    'urn:li:dataset:a',
    'DownstreamOf',
    'urn:li:dataset:b',
    'upstreamLineage',
  )
  const scan = new SqliteEdgeScan(db)
  const prepared: string[] = []
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    prepared.push(sql)
    return prepare(sql)
  }) as typeof db.prepare
  for (const q of [
    { types: ['NoSuchType'] },
    { sourceTypes: ['chart'] },
    { destinationTypes: ['chart'] },
    { types: ['DownstreamOf'], destinationTypes: ['dashboard'] },
  ])
    t.same(scan.scan({ ...ALL, ...q }), { edges: [] }, JSON.stringify(q))
  t.same(prepared, [], 'no scan statement was needed')
  t.same(scan.scan({ ...ALL, types: ['DownstreamOf'] }).edges, [
    { source: 'urn:li:dataset:a', destination: 'urn:li:dataset:b', type: 'DownstreamOf' },
  ])
  t.equal(prepared.length, 1, 'a filter that can match scans')
})
