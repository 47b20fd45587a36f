/**
 * `Neo4jGraph.scanEdges` without a server: the statement is answered by an in-memory double
 * that applies its cursor and limit, so the page assembly (stretches past soft-deleted edges,
 * one edge more for the cursor, the parameters sent) is checked here; the Cypher itself is
 * checked offline in cypher.long-test.ts and against a server by the contract suite.
 */
import type { EdgeScanQuery } from '@catalog/store'
import t from 'tap'
import type { Neo4jConnection } from './connection.js'
import { EDGE_SCAN } from './cypher-graph.js'
import { Neo4jGraph } from './graph.js'
import type { Row, Statement } from './statement.js'

const REMOVED = JSON.stringify({ removed: true })
const e = (source: string, destination: string, gone = false) => ({
  source,
  destination,
  type: 'DownstreamOf',
  sourceStatus: gone ? REMOVED : null,
  destinationStatus: null,
})
const EDGES = [
  e('urn:li:a:1', 'urn:li:z:1'),
  e('urn:li:b:1', 'urn:li:z:1', true),
  e('urn:li:b:2', 'urn:li:z:1', true),
]
EDGES.push(e('urn:li:c:1', 'urn:li:z:1'), e('urn:li:d:1', 'urn:li:z:1'))

function graph(calls: Array<Record<string, unknown>>): Neo4jGraph {
  const tx = {
    run: async (statement: Statement, params: Record<string, unknown>): Promise<Row[]> => {
      if (statement !== EDGE_SCAN) throw new Error('unexpected statement')
      calls.push(params)
      const after = params.after as { source: string } | null
      return EDGES.filter((x) => !after || x.source > after.source).slice(0, Number(params.limit))
    },
  }
  const connection = { read: async (work: (t: unknown) => Promise<unknown>) => work(tx) }
  return new Neo4jGraph(connection as unknown as Neo4jConnection)
}

const q = (over: Partial<EdgeScanQuery> = {}): EdgeScanQuery => ({
  types: [],
  sourceTypes: ['dataset'],
  destinationTypes: [],
  sourceUrns: [],
  destinationUrns: [],
  count: 1,
  includeSoftDeleted: false,
  ...over,
})

t.test('pages skip soft-deleted edges across stretches and keep one edge more for the cursor', async (t) => {
  const calls: Array<Record<string, unknown>> = []
  const page = await graph(calls).scanEdges(q({ after: { source: 'urn:li:a:1', destination: '', type: '' } }))
  t.same(
    page.edges.map((x) => x.source),
    ['urn:li:c:1'],
  )
  t.same(page.next, { source: 'urn:li:c:1', destination: 'urn:li:z:1', type: 'DownstreamOf' })
  t.equal(calls.length, 2, 'the first stretch held only removed edges')
  t.same(calls[0]?.sourcePrefixes, ['urn:li:dataset:'])
  t.same([calls[0]?.sliceMax, calls[0]?.sliceId], [null, null])
  t.same(calls[1]?.after, { source: 'urn:li:b:2', destination: 'urn:li:z:1', type: 'DownstreamOf' })
})

t.test('the last page has no cursor; includeSoftDeleted keeps every edge', async (t) => {
  const last = await graph([]).scanEdges(
    q({ count: 2, after: { source: 'urn:li:b', destination: '', type: '' } }),
  )
  t.same(
    last.edges.map((x) => x.source),
    ['urn:li:c:1', 'urn:li:d:1'],
  )
  t.equal(last.next, undefined)
  const all = await graph([]).scanEdges(q({ count: 10, includeSoftDeleted: true }))
  t.equal(all.edges.length, 5)
})
