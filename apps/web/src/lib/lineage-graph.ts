import type { EntitySummary } from '../api/types.js'

/** The lineage explored so far: entities by URN and directed edges upstream → downstream. */
export interface LineageGraph {
  readonly nodes: ReadonlyMap<string, EntitySummary>
  readonly edges: ReadonlySet<string>
  /** URNs whose neighbours were fetched, per direction. */
  readonly expanded: ReadonlySet<string>
}

export const emptyGraph: LineageGraph = { nodes: new Map(), edges: new Set(), expanded: new Set() }

export const edgeKey = (from: string, to: string) => `${from}\n${to}`

/** Adds one entity's upstream and downstream neighbours to the graph. */
export function withNeighbours(
  graph: LineageGraph,
  center: EntitySummary,
  upstream: readonly EntitySummary[],
  downstream: readonly EntitySummary[],
): LineageGraph {
  const nodes = new Map(graph.nodes)
  const edges = new Set(graph.edges)
  nodes.set(center.urn, nodes.get(center.urn) ?? center)
  for (const u of upstream) {
    if (!nodes.has(u.urn)) nodes.set(u.urn, u)
    edges.add(edgeKey(u.urn, center.urn))
  }
  for (const d of downstream) {
    if (!nodes.has(d.urn)) nodes.set(d.urn, d)
    edges.add(edgeKey(center.urn, d.urn))
  }
  return { nodes, edges, expanded: new Set([...graph.expanded, center.urn]) }
}
