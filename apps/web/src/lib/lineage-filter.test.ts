import t from 'tap'
import type { EntitySummary } from '../api/types.js'
import { lineageFacets, nothingHidden, visibleGraph } from './lineage-filter.js'
import { edgeKey, emptyGraph, withNeighbours } from './lineage-graph.js'

const kafka = (name: string): EntitySummary => ({
  urn: `urn:li:dataset:(urn:li:dataPlatform:kafka,${name},PROD)`,
  type: 'DATASET',
  platform: { urn: 'urn:li:dataPlatform:kafka', name: 'kafka', properties: { displayName: 'Kafka' } },
})
const chart: EntitySummary = { urn: 'urn:li:chart:(looker,c)', type: 'CHART' }
const root = kafka('root')
const up = kafka('up')
const graph = withNeighbours(emptyGraph, root, [up], [chart])

t.test('lineageFacets counts entities per type and platform', async (t) => {
  t.same(lineageFacets(graph), {
    types: [
      ['Chart', 1],
      ['Dataset', 2],
    ],
    platforms: [
      ['Kafka', 2],
      ['none', 1],
    ],
  })
})

t.test('visibleGraph drops hidden entities and their edges, never the root', async (t) => {
  t.equal(visibleGraph(graph, root.urn, nothingHidden), graph, 'nothing hidden: the same graph')
  const noCharts = visibleGraph(graph, root.urn, { types: new Set(['Chart']), platforms: new Set() })
  t.same([...noCharts.nodes.keys()], [root.urn, up.urn])
  t.same([...noCharts.edges], [edgeKey(up.urn, root.urn)])
  const noKafka = visibleGraph(graph, root.urn, { types: new Set(), platforms: new Set(['Kafka']) })
  t.same([...noKafka.nodes.keys()], [root.urn, chart.urn], 'the root stays though it is on Kafka')
  t.same([...noKafka.edges], [edgeKey(root.urn, chart.urn)])
})
