/**
 * The edge-scan part of the graph contract (`runGraphContract` calls it): the keyset scan over
 * all edges behind DataHub's relationship scroll — order, distinct edges, each filter, the
 * cursor, soft-deleted ends and slices.
 */
import type { Test } from 'tap'
import type { StoreFactory } from './contract.js'
import { created, upsert } from './contract-kit.js'
import type { EdgeKey, EdgeScanQuery } from './graph-port.js'
import type { MetadataStore } from './port.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const CHART = 'urn:li:chart:(looker,c1)'
const AMY = 'urn:li:corpuser:amy'
const TAG = 'urn:li:tag:pii'

const scan = (over: Partial<EdgeScanQuery> = {}): EdgeScanQuery => ({
  types: [],
  sourceTypes: [],
  destinationTypes: [],
  sourceUrns: [],
  destinationUrns: [],
  count: 100,
  includeSoftDeleted: false,
  ...over,
})

const key = (e: EdgeKey) => `${e.source} ${e.destination} ${e.type}`

/** Every page of a scan, following `next`. */
async function scrollAll(store: MetadataStore, q: EdgeScanQuery): Promise<EdgeKey[]> {
  const all: EdgeKey[] = []
  let after: EdgeKey | undefined
  for (let i = 0; i < 50; i++) {
    const page = await store.scanEdges({ ...q, after })
    all.push(...page.edges)
    if (!page.next) break
    after = page.next
  }
  return all
}

export function runEdgeScanContract(t: Test, name: string, factory: StoreFactory): void {
  t.test(`${name}: edge scan contract`, async (t) => {
    let store: MetadataStore
    t.beforeEach(async () => {
      store = await factory.open()
      await store.write({
        mutations: [
          upsert(ds('b'), 'upstreamLineage', {}, [{ type: 'DownstreamOf', destination: ds('a') }]),
          // The same edge from a second aspect counts once.
          upsert(ds('b'), 'fineGrained', {}, [{ type: 'DownstreamOf', destination: ds('a') }]),
          upsert(ds('b'), 'ownership', {}, [{ type: 'OwnedBy', destination: AMY }]),
          upsert(ds('b'), 'globalTags', {}, [{ type: 'TaggedWith', destination: TAG }]),
          upsert(ds('c'), 'upstreamLineage', {}, [{ type: 'DownstreamOf', destination: ds('b') }]),
          upsert(CHART, 'chartInfo', {}, [{ type: 'Consumes', destination: ds('c') }]),
          upsert(CHART, 'ownership', {}, [{ type: 'OwnedBy', destination: AMY }]),
        ],
        created,
      })
    })
    t.afterEach(async () => {
      await store.close()
    })

    t.test(
      'distinct edges in (source, destination, type) order; filters AND across, OR within',
      async (t) => {
        const all = await store.scanEdges(scan())
        t.same(all.edges, [
          { source: CHART, destination: AMY, type: 'OwnedBy' },
          { source: CHART, destination: ds('c'), type: 'Consumes' },
          { source: ds('b'), destination: AMY, type: 'OwnedBy' },
          { source: ds('b'), destination: ds('a'), type: 'DownstreamOf' },
          { source: ds('b'), destination: TAG, type: 'TaggedWith' },
          { source: ds('c'), destination: ds('b'), type: 'DownstreamOf' },
        ])
        t.equal(all.next, undefined, 'no cursor when nothing follows')
        const keys = async (over: Partial<EdgeScanQuery>) =>
          (await store.scanEdges(scan(over))).edges.map(key)
        t.same(await keys({ types: ['DownstreamOf', 'Consumes'] }), [
          `${CHART} ${ds('c')} Consumes`,
          `${ds('b')} ${ds('a')} DownstreamOf`,
          `${ds('c')} ${ds('b')} DownstreamOf`,
        ])
        t.same(await keys({ sourceTypes: ['chart'] }), [
          `${CHART} ${AMY} OwnedBy`,
          `${CHART} ${ds('c')} Consumes`,
        ])
        t.same(await keys({ destinationTypes: ['corpuser', 'tag'] }), [
          `${CHART} ${AMY} OwnedBy`,
          `${ds('b')} ${AMY} OwnedBy`,
          `${ds('b')} ${TAG} TaggedWith`,
        ])
        t.same(await keys({ destinationUrns: [AMY], sourceUrns: [CHART, ds('c')] }), [
          `${CHART} ${AMY} OwnedBy`,
        ])
        t.same(
          await keys({ sourceUrns: [ds('c')], destinationTypes: ['dataset'], types: ['DownstreamOf'] }),
          [`${ds('c')} ${ds('b')} DownstreamOf`],
        )
        t.same(await keys({ types: ['NoSuchType'] }), [])
      },
    )

    t.test('pages follow the cursor: no edge twice, none left out', async (t) => {
      const first = await store.scanEdges(scan({ count: 4 }))
      t.equal(first.edges.length, 4)
      t.same(first.next, first.edges[3], 'the cursor is the last edge of the page')
      const second = await store.scanEdges(scan({ count: 4, after: first.next }))
      t.same(second.edges.map(key), [`${ds('b')} ${TAG} TaggedWith`, `${ds('c')} ${ds('b')} DownstreamOf`])
      t.equal(second.next, undefined)
      const exact = await store.scanEdges(scan({ count: 6 }))
      t.same([exact.edges.length, exact.next], [6, undefined], 'a full last page has no cursor')
      const ones = await scrollAll(store, scan({ count: 1 }))
      t.same(ones, (await store.scanEdges(scan())).edges)
      const after = await store.scanEdges(
        scan({ after: { source: ds('b'), destination: ds('a'), type: 'A' } }),
      )
      t.equal(after.edges[0]?.type, 'DownstreamOf', 'a cursor need not be an existing edge')
    })

    t.test('soft-deleted ends are left out unless asked for; the latest status counts', async (t) => {
      await store.write({ mutations: [upsert(ds('a'), 'status', { removed: true })], created })
      const live = await scrollAll(store, scan({ count: 1 }))
      t.same(live.length, 5)
      t.notOk(live.some((e) => e.destination === ds('a')))
      t.equal((await store.scanEdges(scan({ includeSoftDeleted: true }))).edges.length, 6)
      await store.write({ mutations: [upsert(ds('b'), 'status', { removed: true })], created })
      t.same((await store.scanEdges(scan())).edges.map(key), [
        `${CHART} ${AMY} OwnedBy`,
        `${CHART} ${ds('c')} Consumes`,
      ])
      const paged = await store.scanEdges(
        scan({ count: 1, after: { source: CHART, destination: AMY, type: 'OwnedBy' } }),
      )
      t.same(paged.edges.map(key), [`${CHART} ${ds('c')} Consumes`])
      t.equal(paged.next, undefined, 'edges with removed ends after the page are not "more"')
      await store.write({ mutations: [upsert(ds('b'), 'status', { removed: false })], created })
      t.equal((await store.scanEdges(scan())).edges.length, 5)
    })

    t.test('slices are disjoint and together hold every edge', async (t) => {
      const all = (await store.scanEdges(scan())).edges.map(key)
      const parts: string[] = []
      for (let id = 0; id < 3; id++) {
        const slice = await scrollAll(store, scan({ count: 2, slice: { id, max: 3 } }))
        parts.push(...slice.map(key))
        t.same(
          (await store.scanEdges(scan({ slice: { id, max: 3 } }))).edges.map(key),
          slice.map(key),
          `slice ${id} is stable`,
        )
      }
      t.same([...parts].sort(), [...all].sort())
    })
  })
}
