import t from 'tap'
import type { EntitySummary } from '../api/types.js'
import { edgeKey, emptyGraph, withNeighbours, withReached } from './lineage-graph.js'

const e = (urn: string): EntitySummary => ({ urn, type: 'DATASET' })
const path = (...urns: string[]) => [{ path: urns.map((urn) => ({ urn })) }]

t.test('withNeighbours adds one hop both ways and marks the centre expanded', async (t) => {
  const g = withNeighbours(emptyGraph, e('b'), [e('a')], [e('c')])
  t.same([...g.nodes.keys()], ['b', 'a', 'c'])
  t.same([...g.edges], [edgeKey('a', 'b'), edgeKey('b', 'c')])
  t.same([...g.expanded], ['b'])
})

t.test('withReached draws the edges of each path, in the direction of the data', async (t) => {
  const down = withReached(emptyGraph, e('r'), 'DOWNSTREAM', [
    { entity: e('x'), degree: 1, paths: path('r', 'x') },
    { entity: e('y'), degree: 2, paths: path('r', 'x', 'y') },
  ])
  t.same([...down.edges], [edgeKey('r', 'x'), edgeKey('x', 'y')])
  t.same([...down.expanded], ['r'], 'only the root: the others may have edges off their shortest paths')
  t.equal(down.partial, false)
  const both = withReached(
    down,
    e('r'),
    'UPSTREAM',
    // The path may leave out the root; an unknown hop in it is skipped, not invented.
    [
      { entity: e('u'), degree: 1, paths: path('u') },
      { entity: e('v'), degree: 3, paths: [{ path: [{ urn: 'u' }, null, { urn: 'v' }] }] },
    ],
    true,
  )
  t.ok(both.edges.has(edgeKey('u', 'r')), 'upstream edges point at the root')
  t.ok(both.edges.has(edgeKey('v', 'u')), 'a null hop is skipped')
  t.equal(both.nodes.size, 5)
  t.equal(both.partial, true, 'the partial flag sticks')
})
