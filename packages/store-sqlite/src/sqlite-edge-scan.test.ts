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
