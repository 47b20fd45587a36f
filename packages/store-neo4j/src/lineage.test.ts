/**
 * The lineage walk without a server: `read` answers each level as `LINEAGE_LEVEL` does
 * (entities one hop from the frontier along the planned (type, direction, entity types),
 * minus the visited ones, after the cursor, grouped with every (parent, type), ordered by
 * URN, limited, with their status), over an in-memory edge list. The graph scenarios mirror
 * the store contract's, plus what only this adapter does: paging inside a level, the
 * node budget as the query limit, and a server-side timeout.
 */
import type { LineageEdgeSpec, LineageQuery } from '@catalog/store'
import { Neo4jError } from 'neo4j-driver'
import t from 'tap'
import { translateError } from './errors.js'
import {
  isSoftDeleted,
  type LevelRequest,
  type LevelRow,
  lineagePlan,
  type ReadLevel,
  type SpecParam,
  traverse,
} from './lineage.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,flow,PROD),job)'
const CHART = 'urn:li:chart:(looker,c1)'
const DASH = 'urn:li:dashboard:(looker,d1)'
const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)'
const FEATURE = 'urn:li:mlFeature:(t,f)'

const SPECS: readonly LineageEdgeSpec[] = [
  { type: 'DownstreamOf', isUpstream: true, sourceTypes: ['dataset'], destinationTypes: ['dataset'] },
  { type: 'Consumes', isUpstream: true, sourceTypes: ['dataJob', 'chart'], destinationTypes: ['dataset'] },
  { type: 'Produces', isUpstream: false, sourceTypes: ['dataJob'], destinationTypes: ['dataset'] },
  { type: 'Contains', isUpstream: true, sourceTypes: ['dashboard'], destinationTypes: ['chart'] },
]

type Edge = readonly [string, string, string]

/** An in-memory graph answering level requests as the level statement does; records them. */
class Graph {
  readonly requests: LevelRequest[] = []
  readonly status = new Map<string, string>()
  constructor(readonly edges: readonly Edge[]) {}

  reader(q: Pick<LineageQuery, 'edges' | 'direction'>): ReadLevel {
    const { types, specs } = lineagePlan(q.edges, q.direction)
    return async (req) => {
      this.requests.push(req)
      const visited = new Set(req.visited)
      const via = new Map<string, Array<{ parent: string; type: string }>>()
      for (const near of req.frontier) {
        for (const [source, type, destination] of this.edges) {
          for (const outgoing of [true, false]) {
            if ((outgoing ? source : destination) !== near) continue
            const far = outgoing ? destination : source
            if (!types.includes(type) || visited.has(far)) continue
            if (req.after !== null && far <= req.after) continue
            if (!specs.some((s) => matches(s, type, outgoing, near, far))) continue
            via.set(far, [...(via.get(far) ?? []), { parent: near, type }])
          }
        }
      }
      return [...via.keys()]
        .sort()
        .slice(0, req.limit)
        .map(
          (entity): LevelRow => ({
            entity,
            via: via.get(entity) ?? [],
            status: this.status.get(entity) ?? null,
          }),
        )
    }
  }
}

const typeOf = (urn: string) => urn.split(':')[2] ?? ''
function matches(s: SpecParam, type: string, outgoing: boolean, near: string, far: string): boolean {
  return (
    s.type === type &&
    s.outgoing === outgoing &&
    (s.near === null || s.near.includes(typeOf(near))) &&
    (s.far === null || s.far.includes(typeOf(far)))
  )
}

const q = (over: Partial<LineageQuery> & Pick<LineageQuery, 'urn' | 'direction'>): LineageQuery => ({
  maxHops: 10,
  start: 0,
  count: 100,
  maxNodes: 1000,
  timeBudgetMs: 10_000,
  includeSoftDeleted: false,
  edges: SPECS,
  ...over,
})

async function walk(graph: Graph, query: LineageQuery, clock?: () => number) {
  return traverse(query, graph.reader(query), clock)
}

t.test('the plan follows each edge type in the right direction between the declared types', async (t) => {
  const up = lineagePlan(SPECS, 'UPSTREAM')
  t.same(up.types, ['DownstreamOf', 'Consumes', 'Produces', 'Contains'])
  t.same(up.specs[0], { type: 'DownstreamOf', outgoing: true, near: ['dataset'], far: ['dataset'] })
  t.same(up.specs[2], { type: 'Produces', outgoing: false, near: ['dataset'], far: ['dataJob'] })
  const down = lineagePlan(SPECS, 'DOWNSTREAM')
  t.same(down.specs[1], { type: 'Consumes', outgoing: false, near: ['dataset'], far: ['dataJob', 'chart'] })
  const any = lineagePlan(
    [{ type: 'X', isUpstream: true, sourceTypes: [], destinationTypes: [] }],
    'UPSTREAM',
  )
  t.same(any.specs, [{ type: 'X', outgoing: true, near: null, far: null }], 'no types: any type')
  t.same(lineagePlan([...SPECS, SPECS[0] as LineageEdgeSpec], 'UPSTREAM').types.length, 4, 'types once')
})

t.test('degrees, shortest paths and the direction of each edge type', async (t) => {
  const graph = new Graph([
    [ds('b'), 'DownstreamOf', ds('a')],
    [ds('c'), 'DownstreamOf', ds('b')],
    [JOB, 'Consumes', ds('c')],
    [JOB, 'Produces', ds('d')],
    [CHART, 'Consumes', ds('d')],
    [DASH, 'Contains', CHART],
  ])
  const down = await walk(graph, q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
  t.same(
    down.results.map((r) => [r.entity, r.type, r.degree]),
    [
      [ds('b'), 'DownstreamOf', 1],
      [ds('c'), 'DownstreamOf', 2],
      [JOB, 'Consumes', 3],
      [ds('d'), 'Produces', 4],
      [CHART, 'Consumes', 5],
      [DASH, 'Contains', 6],
    ],
  )
  t.same(down.results[5]?.path, [ds('a'), ds('b'), ds('c'), JOB, ds('d'), CHART, DASH])
  t.same([down.total, down.isPartial, down.partialReason], [6, false, undefined])
  const up = await walk(graph, q({ urn: DASH, direction: 'UPSTREAM' }))
  t.same(
    up.results.map((r) => [r.entity, r.degree]),
    [
      [CHART, 1],
      [ds('d'), 2],
      [JOB, 3],
      [ds('c'), 4],
      [ds('b'), 5],
      [ds('a'), 6],
    ],
  )
  t.same(up.results[3]?.path, [DASH, CHART, ds('d'), JOB, ds('c')])
  t.same(graph.requests[0]?.visited, [ds('a')], 'the start is visited from the first level on')
})

t.test('a shorter path wins; ties go to the smallest parent, then type', async (t) => {
  const graph = new Graph([
    [ds('p2'), 'DownstreamOf', ds('x')],
    [ds('p1'), 'DownstreamOf', ds('x')],
    [ds('z'), 'DownstreamOf', ds('p2')],
    [ds('z'), 'DownstreamOf', ds('p1')],
    [ds('w'), 'DownstreamOf', ds('p2')],
    [ds('w'), 'DownstreamOf', ds('p1')],
    [ds('z'), 'DownstreamOf', ds('x')],
  ])
  const down = await walk(graph, q({ urn: ds('x'), direction: 'DOWNSTREAM' }))
  t.same(
    down.results.map((r) => [r.entity, r.degree, r.path]),
    [
      [ds('p1'), 1, [ds('x'), ds('p1')]],
      [ds('p2'), 1, [ds('x'), ds('p2')]],
      [ds('z'), 1, [ds('x'), ds('z')]],
      [ds('w'), 2, [ds('x'), ds('p1'), ds('w')]],
    ],
  )
  const twoTypes = new Graph([
    [ds('b'), 'Zeta', ds('a')],
    [ds('b'), 'Alpha', ds('a')],
  ])
  const specs = ['Zeta', 'Alpha'].map((type) => ({
    type,
    isUpstream: true,
    sourceTypes: [],
    destinationTypes: [],
  }))
  const [only] = (await walk(twoTypes, q({ urn: ds('b'), direction: 'UPSTREAM', edges: specs }))).results
  t.equal(only?.type, 'Alpha')
})

t.test('only lineage edges between the declared entity types are followed', async (t) => {
  const graph = new Graph([
    [ds('b'), 'DownstreamOf', ds('a')],
    [ds('b'), 'OwnedBy', 'urn:li:corpuser:jdoe'],
    [TABLE, 'Contains', FEATURE],
    [ds('s'), 'DownstreamOf', 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD),f)'],
  ])
  t.same(
    (await walk(graph, q({ urn: ds('b'), direction: 'UPSTREAM' }))).results.map((r) => r.entity),
    [ds('a')],
  )
  t.equal((await walk(graph, q({ urn: TABLE, direction: 'UPSTREAM' }))).total, 0)
  t.equal((await walk(graph, q({ urn: ds('s'), direction: 'UPSTREAM' }))).total, 0)
})

t.test('cycles terminate and never return the start', async (t) => {
  const graph = new Graph([
    [ds('b'), 'DownstreamOf', ds('a')],
    [ds('c'), 'DownstreamOf', ds('b')],
    [ds('a'), 'DownstreamOf', ds('c')],
    [ds('a'), 'DownstreamOf', ds('a')],
  ])
  const down = await walk(graph, q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
  t.same(
    down.results.map((r) => [r.entity, r.degree]),
    [
      [ds('b'), 1],
      [ds('c'), 2],
    ],
  )
  t.equal(down.isPartial, false)
})

t.test('maxHops, node and time budgets say when they cut the answer', async (t) => {
  const graph = new Graph([
    [ds('b'), 'DownstreamOf', ds('a')],
    [ds('c'), 'DownstreamOf', ds('b')],
    [ds('d'), 'DownstreamOf', ds('c')],
    ...[1, 2, 3, 4, 5].map((i): Edge => [ds(`e${i}`), 'DownstreamOf', ds('a')]),
  ])
  const from = (over: Partial<LineageQuery>) =>
    walk(graph, q({ urn: ds('a'), direction: 'DOWNSTREAM', ...over }))
  const two = await from({ maxHops: 2 })
  t.same([two.total, two.isPartial, two.partialReason], [7, true, 'MAX_HOPS'])
  t.notOk(two.results.some((r) => r.degree > 2))
  const three = await from({ maxHops: 3 })
  t.same([three.total, three.isPartial, three.partialReason], [8, false, undefined])
  graph.requests.length = 0
  const nodes = await from({ maxNodes: 4 })
  t.same([nodes.total, nodes.isPartial, nodes.partialReason], [4, true, 'NODE_BUDGET'])
  t.same(
    nodes.results.map((r) => r.entity),
    [ds('b'), ds('e1'), ds('e2'), ds('e3')],
  )
  t.equal(graph.requests.length, 1, 'the level query stopped at the budget')
  t.ok((graph.requests[0]?.limit ?? 0) >= 5, 'it asks for one more than the budget allows')
  const exact = await from({ maxNodes: 8 })
  t.same([exact.total, exact.isPartial], [8, false])
  const time = await from({ timeBudgetMs: 0 })
  t.same([time.total, time.isPartial, time.partialReason], [0, true, 'TIME_BUDGET'])
  const leaf = await walk(graph, q({ urn: ds('d'), direction: 'DOWNSTREAM' }))
  t.same([leaf.total, leaf.isPartial], [0, false])

  let now = 0
  const slow = new Graph(graph.edges)
  const read = slow.reader(q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
  const timed = await traverse(
    q({ urn: ds('a'), direction: 'DOWNSTREAM', timeBudgetMs: 100 }),
    async (req) => {
      t.ok(req.timeoutMs > 0 && req.timeoutMs <= 100, 'each query gets the time left')
      const rows = await read(req)
      now += 60
      return rows
    },
    () => now,
  )
  t.same(
    [timed.total, timed.isPartial, timed.partialReason],
    [7, true, 'TIME_BUDGET'],
    'levels read before the budget ran out are kept',
  )
})

t.test('a level the server times out ends the walk with what the earlier levels found', async (t) => {
  const graph = new Graph([
    [ds('b'), 'DownstreamOf', ds('a')],
    [ds('c'), 'DownstreamOf', ds('b')],
  ])
  const read = graph.reader(q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
  let calls = 0
  const timedOut = translateError(
    new Neo4jError('timed out', 'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration', '', ''),
    'lineage read',
  )
  const page = await traverse(q({ urn: ds('a'), direction: 'DOWNSTREAM' }), async (req) => {
    if (++calls === 2) throw timedOut
    return read(req)
  })
  t.same([page.total, page.isPartial, page.partialReason], [1, true, 'TIME_BUDGET'])
  const broken = new Error('no server')
  await t.rejects(
    traverse(q({ urn: ds('a'), direction: 'DOWNSTREAM' }), async () => {
      throw broken
    }),
    broken,
    'other failures are not a partial answer',
  )
})

t.test('soft-deleted entities are skipped and not traversed unless asked', async (t) => {
  const graph = new Graph([
    [ds('b'), 'DownstreamOf', ds('a')],
    [ds('c'), 'DownstreamOf', ds('b')],
    [ds('f'), 'DownstreamOf', ds('a')],
  ])
  graph.status.set(ds('b'), '{"removed":true}')
  graph.status.set(ds('f'), '{"removed":false}')
  const from = (urn: string, over: Partial<LineageQuery> = {}) =>
    walk(graph, q({ urn, direction: 'DOWNSTREAM', ...over }))
  t.same(
    (await from(ds('a'))).results.map((r) => r.entity),
    [ds('f')],
  )
  t.same(
    (await from(ds('a'), { includeSoftDeleted: true })).results.map((r) => [r.entity, r.degree]),
    [
      [ds('b'), 1],
      [ds('f'), 1],
      [ds('c'), 2],
    ],
  )
  t.same(
    (await from(ds('b'))).results.map((r) => r.entity),
    [ds('c')],
    'the start is traversed even when soft-deleted',
  )
  graph.requests.length = 0
  const capped = await from(ds('a'), { maxHops: 1 })
  t.same([capped.total, capped.isPartial], [1, false], 'lineage behind a soft-deleted entity is not "more"')
  t.ok(graph.requests[1]?.visited.includes(ds('b')), 'a soft-deleted entity is never fetched again')
  t.ok(isSoftDeleted('{"removed":true}'))
  t.notOk(isSoftDeleted('{"removed":"true"}'))
  t.notOk(isSoftDeleted('not json'))
  t.notOk(isSoftDeleted(null))
})

t.test('a level with many soft-deleted entities is read page by page', async (t) => {
  const removed = Array.from({ length: 150 }, (_, i) => ds(`a${String(i).padStart(3, '0')}`))
  const graph = new Graph(
    [...removed, ds('live1'), ds('live2')].map((u): Edge => [u, 'DownstreamOf', ds('root')]),
  )
  for (const u of removed) graph.status.set(u, '{"removed":true}')
  const page = await walk(graph, q({ urn: ds('root'), direction: 'DOWNSTREAM', maxNodes: 1 }))
  t.same(
    [page.results.map((r) => r.entity), page.isPartial, page.partialReason],
    [[ds('live1')], true, 'NODE_BUDGET'],
  )
  t.ok(graph.requests.length > 1, 'more than one page')
  t.equal(graph.requests[0]?.after, null)
  t.equal(graph.requests[1]?.after, graph.requests[0] && removed[(graph.requests[0].limit ?? 0) - 1])
})

t.test('paging over (degree, urn) keeps total and paths', async (t) => {
  const graph = new Graph([
    ...['k', 'j', 'i', 'h'].map((n): Edge => [ds(n), 'DownstreamOf', ds('root')]),
    [ds('z2'), 'DownstreamOf', ds('k')],
  ])
  const all = await walk(graph, q({ urn: ds('root'), direction: 'DOWNSTREAM' }))
  const page = await walk(graph, q({ urn: ds('root'), direction: 'DOWNSTREAM', start: 2, count: 2 }))
  t.equal(page.total, 5)
  t.same(page.results, all.results.slice(2, 4))
  t.same(
    all.results.map((r) => r.entity),
    [ds('h'), ds('i'), ds('j'), ds('k'), ds('z2')],
  )
  t.same(page.results[1]?.path, [ds('root'), ds('k')])
  const beyond = await walk(graph, q({ urn: ds('root'), direction: 'DOWNSTREAM', start: 10 }))
  t.same([beyond.total, beyond.results.length], [5, 0])
})
