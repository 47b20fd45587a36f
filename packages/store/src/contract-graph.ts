/**
 * The graph half of the store contract (`runStoreContract` calls it): relationship reads in
 * every direction with paging, and bounded lineage traversal — degrees, shortest paths,
 * cycles, edge directions, entity-type filters, soft-deleted entities, paging and each bound.
 */
import type { Test } from 'tap'
import type { StoreFactory } from './contract.js'
import { runEdgeScanContract } from './contract-edge-scan.js'
import { created, upsert } from './contract-kit.js'
import type { LineageEdgeSpec, LineageQuery } from './graph-port.js'
import type { EdgeTarget, MetadataStore } from './port.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,flow,PROD),job)'
const CHART = 'urn:li:chart:(looker,c1)'
const DASH = 'urn:li:dashboard:(looker,d1)'
const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)'
const FEATURE = 'urn:li:mlFeature:(t,f)'

/** The lineage relationships the suite's graphs use, shaped as the registry derives them. */
const SPECS: readonly LineageEdgeSpec[] = [
  { type: 'DownstreamOf', isUpstream: true, sourceTypes: ['dataset'], destinationTypes: ['dataset'] },
  { type: 'Consumes', isUpstream: true, sourceTypes: ['dataJob', 'chart'], destinationTypes: ['dataset'] },
  { type: 'Produces', isUpstream: false, sourceTypes: ['dataJob'], destinationTypes: ['dataset'] },
  { type: 'Contains', isUpstream: true, sourceTypes: ['dashboard'], destinationTypes: ['chart'] },
]

/** Writes `source -[type]-> destination` edges, one aspect per (source, type). */
async function edges(store: MetadataStore, ...list: Array<[string, string, string]>): Promise<void> {
  const bySource = new Map<string, EdgeTarget[]>()
  for (const [source, type, destination] of list) {
    const key = `${source}\u0000${type}`
    bySource.set(key, [...(bySource.get(key) ?? []), { type, destination }])
  }
  const mutations = [...bySource].map(([key, targets]) => {
    const [source, type] = key.split('\u0000') as [string, string]
    return upsert(source, `aspect${type}`, { n: targets.length }, targets)
  })
  await store.write({ mutations, created })
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

export function runGraphContract(t: Test, name: string, factory: StoreFactory): void {
  t.test(`${name}: graph contract`, async (t) => {
    let store: MetadataStore
    t.beforeEach(async () => {
      store = await factory.open()
    })
    t.afterEach(async () => {
      await store.close()
    })

    t.test('relationships: directions, type filter, order, paging', async (t) => {
      await edges(
        store,
        [ds('b'), 'DownstreamOf', ds('a')],
        [ds('c'), 'DownstreamOf', ds('b')],
        [ds('b'), 'OwnedBy', 'urn:li:corpuser:zed'],
        [ds('b'), 'OwnedBy', 'urn:li:corpuser:amy'],
        [ds('b'), 'TaggedWith', 'urn:li:tag:x'],
      )
      const rel = (
        direction: 'INCOMING' | 'OUTGOING' | 'UNDIRECTED',
        types: string[],
        start = 0,
        count = 10,
      ) => store.relationships({ urn: ds('b'), direction, types, start, count })
      t.same((await rel('OUTGOING', [])).relationships, [
        { type: 'DownstreamOf', entity: ds('a') },
        { type: 'OwnedBy', entity: 'urn:li:corpuser:amy' },
        { type: 'OwnedBy', entity: 'urn:li:corpuser:zed' },
        { type: 'TaggedWith', entity: 'urn:li:tag:x' },
      ])
      t.same((await rel('INCOMING', ['DownstreamOf'])).relationships, [
        { type: 'DownstreamOf', entity: ds('c') },
      ])
      const both = await rel('UNDIRECTED', ['DownstreamOf'])
      t.same(both.relationships, [
        { type: 'DownstreamOf', entity: ds('a') },
        { type: 'DownstreamOf', entity: ds('c') },
      ])
      t.equal(both.total, 2)
      const two = await rel('OUTGOING', ['OwnedBy', 'TaggedWith'], 1, 1)
      t.equal(two.total, 3, 'total counts every page')
      t.same(two.relationships, [{ type: 'OwnedBy', entity: 'urn:li:corpuser:zed' }])
      const none = await rel('OUTGOING', ['OwnedBy'], 0, 0)
      t.same([none.total, none.relationships.length], [2, 0], 'count 0 gives the total only')
      t.equal((await rel('OUTGOING', ['NoSuchType'])).total, 0)
    })

    t.test('lineage: degrees, shortest paths and the direction of each edge type', async (t) => {
      // a <- b <- c (DownstreamOf); job consumes c, produces d; chart consumes d; dashboard contains chart.
      await edges(
        store,
        [ds('b'), 'DownstreamOf', ds('a')],
        [ds('c'), 'DownstreamOf', ds('b')],
        [JOB, 'Consumes', ds('c')],
        [JOB, 'Produces', ds('d')],
        [CHART, 'Consumes', ds('d')],
        [DASH, 'Contains', CHART],
      )
      const down = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
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
      t.same([down.total, down.isPartial], [6, false])
      const up = await store.lineage(q({ urn: DASH, direction: 'UPSTREAM' }))
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
    })

    t.test('lineage: a shorter path wins; ties go to the smallest parent', async (t) => {
      // x <- p1 <- z, x <- p2 <- z, x <- z : z is one hop from x.
      await edges(
        store,
        [ds('p2'), 'DownstreamOf', ds('x')],
        [ds('p1'), 'DownstreamOf', ds('x')],
        [ds('z'), 'DownstreamOf', ds('p2')],
        [ds('z'), 'DownstreamOf', ds('p1')],
        [ds('w'), 'DownstreamOf', ds('p2')],
        [ds('w'), 'DownstreamOf', ds('p1')],
        [ds('z'), 'DownstreamOf', ds('x')],
      )
      const down = await store.lineage(q({ urn: ds('x'), direction: 'DOWNSTREAM' }))
      t.same(
        down.results.map((r) => [r.entity, r.degree, r.path]),
        [
          [ds('p1'), 1, [ds('x'), ds('p1')]],
          [ds('p2'), 1, [ds('x'), ds('p2')]],
          [ds('z'), 1, [ds('x'), ds('z')]],
          [ds('w'), 2, [ds('x'), ds('p1'), ds('w')]],
        ],
      )
    })

    t.test('lineage: only lineage edges between the declared entity types are followed', async (t) => {
      await edges(
        store,
        [ds('b'), 'DownstreamOf', ds('a')],
        [ds('b'), 'OwnedBy', 'urn:li:corpuser:jdoe'],
        [TABLE, 'Contains', FEATURE],
        [ds('s'), 'DownstreamOf', 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD),f)'],
      )
      const up = await store.lineage(q({ urn: ds('b'), direction: 'UPSTREAM' }))
      t.same(
        up.results.map((r) => r.entity),
        [ds('a')],
      )
      const table = await store.lineage(q({ urn: TABLE, direction: 'UPSTREAM' }))
      t.equal(table.total, 0, 'a feature table Contains edge is not lineage')
      const s = await store.lineage(q({ urn: ds('s'), direction: 'UPSTREAM' }))
      t.equal(s.total, 0, 'DownstreamOf to a schemaField is not dataset lineage')
      const noSpecs = await store.lineage(q({ urn: ds('b'), direction: 'UPSTREAM', edges: [] }))
      t.equal(noSpecs.total, 0)
    })

    t.test('lineage: cycles terminate and never return the start', async (t) => {
      await edges(
        store,
        [ds('b'), 'DownstreamOf', ds('a')],
        [ds('c'), 'DownstreamOf', ds('b')],
        [ds('a'), 'DownstreamOf', ds('c')],
        [ds('a'), 'DownstreamOf', ds('a')],
      )
      const down = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
      t.same(
        down.results.map((r) => [r.entity, r.degree]),
        [
          [ds('b'), 1],
          [ds('c'), 2],
        ],
      )
      t.equal(down.isPartial, false)
    })

    t.test('lineage: maxHops, node and time budgets say when they cut the answer', async (t) => {
      // a <- b <- c <- d, and a has 5 more direct downstreams.
      await edges(
        store,
        [ds('b'), 'DownstreamOf', ds('a')],
        [ds('c'), 'DownstreamOf', ds('b')],
        [ds('d'), 'DownstreamOf', ds('c')],
        ...[1, 2, 3, 4, 5].map((i): [string, string, string] => [ds(`e${i}`), 'DownstreamOf', ds('a')]),
      )
      const two = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM', maxHops: 2 }))
      t.same([two.total, two.isPartial, two.partialReason], [7, true, 'MAX_HOPS'])
      t.notOk(
        two.results.some((r) => r.degree > 2),
        'nothing beyond maxHops',
      )
      const three = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM', maxHops: 3 }))
      t.same(
        [three.total, three.isPartial, three.partialReason],
        [8, false, undefined],
        'exactly enough hops',
      )
      const nodes = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM', maxNodes: 4 }))
      t.same([nodes.total, nodes.isPartial, nodes.partialReason], [4, true, 'NODE_BUDGET'])
      t.same(
        nodes.results.map((r) => r.entity),
        [ds('b'), ds('e1'), ds('e2'), ds('e3')],
        'the first entities in (degree, urn) order',
      )
      const exact = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM', maxNodes: 8 }))
      t.same([exact.total, exact.isPartial], [8, false], 'a budget that fits everything is not partial')
      const time = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM', timeBudgetMs: 0 }))
      t.same([time.isPartial, time.partialReason], [true, 'TIME_BUDGET'])
      const leaf = await store.lineage(q({ urn: ds('d'), direction: 'DOWNSTREAM', timeBudgetMs: 10_000 }))
      t.same([leaf.total, leaf.isPartial], [0, false], 'nothing to find is a complete answer')
    })

    t.test('lineage: soft-deleted entities are skipped and not traversed unless asked', async (t) => {
      await edges(
        store,
        [ds('b'), 'DownstreamOf', ds('a')],
        [ds('c'), 'DownstreamOf', ds('b')],
        [ds('f'), 'DownstreamOf', ds('a')],
      )
      await store.write({
        mutations: [
          upsert(ds('b'), 'status', { removed: true }),
          upsert(ds('f'), 'status', { removed: false }),
        ],
        created,
      })
      const down = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
      t.same(
        down.results.map((r) => r.entity),
        [ds('f')],
      )
      const all = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM', includeSoftDeleted: true }))
      t.same(
        all.results.map((r) => [r.entity, r.degree]),
        [
          [ds('b'), 1],
          [ds('f'), 1],
          [ds('c'), 2],
        ],
      )
      const fromRemoved = await store.lineage(q({ urn: ds('b'), direction: 'DOWNSTREAM' }))
      t.same(
        fromRemoved.results.map((r) => r.entity),
        [ds('c')],
        'the start itself is traversed even when soft-deleted',
      )
      const capped = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM', maxHops: 1 }))
      t.same(
        [capped.total, capped.isPartial],
        [1, false],
        'lineage behind a soft-deleted entity is not "more"',
      )
      await store.write({ mutations: [upsert(ds('b'), 'status', { removed: false })], created })
      const restored = await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM' }))
      t.equal(restored.total, 3, 'the latest status counts')
    })

    t.test('lineage: paging over (degree, urn) keeps total and paths', async (t) => {
      await edges(
        store,
        ...['k', 'j', 'i', 'h'].map((n): [string, string, string] => [ds(n), 'DownstreamOf', ds('root')]),
        [ds('z2'), 'DownstreamOf', ds('k')],
      )
      const all = await store.lineage(q({ urn: ds('root'), direction: 'DOWNSTREAM' }))
      const page = await store.lineage(q({ urn: ds('root'), direction: 'DOWNSTREAM', start: 2, count: 2 }))
      t.equal(page.total, 5)
      t.same(page.results, all.results.slice(2, 4))
      t.same(
        all.results.map((r) => r.entity),
        [ds('h'), ds('i'), ds('j'), ds('k'), ds('z2')],
      )
      t.same(page.results[1]?.path, [ds('root'), ds('k')])
      const beyond = await store.lineage(q({ urn: ds('root'), direction: 'DOWNSTREAM', start: 10 }))
      t.same([beyond.total, beyond.results.length], [5, 0])
    })

    t.test('lineage follows edge changes at once', async (t) => {
      await edges(store, [ds('b'), 'DownstreamOf', ds('a')], [ds('c'), 'DownstreamOf', ds('b')])
      t.equal((await store.lineage(q({ urn: ds('c'), direction: 'UPSTREAM' }))).total, 2)
      await store.write({ mutations: [upsert(ds('c'), 'aspectDownstreamOf', { n: 0 }, [])], created })
      t.equal((await store.lineage(q({ urn: ds('c'), direction: 'UPSTREAM' }))).total, 0)
      await store.write({
        mutations: [
          { kind: 'delete', urn: ds('b'), entityType: 'dataset', aspect: 'k', created, isKeyAspect: true },
        ],
        created,
      })
      t.equal((await store.lineage(q({ urn: ds('a'), direction: 'DOWNSTREAM' }))).total, 0)
    })
  })
  runEdgeScanContract(t, name, factory)
}
