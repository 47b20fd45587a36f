import type { EntitySummary } from '../api/types.js'

/** The lineage explored so far: entities by URN and directed edges upstream → downstream. */
export interface LineageGraph {
  readonly nodes: ReadonlyMap<string, EntitySummary>
  readonly edges: ReadonlySet<string>
  /** URNs whose neighbours were fetched, per direction. */
  readonly expanded: ReadonlySet<string>
  /** Set when a bound of the lineage walk cut it short (DataHub's `isPartial`). */
  readonly partial?: boolean
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
  return { ...graph, nodes, edges, expanded: new Set([...graph.expanded, center.urn]) }
}

/** One result of a lineage search: the entity reached, its degree and the walk's paths to it. */
export interface Reached {
  readonly entity: EntitySummary
  readonly degree: number
  readonly paths?: readonly ({ readonly path: readonly ({ urn: string } | null)[] } | null)[] | null
}

/**
 * Adds the entities a multi-hop walk from `root` reached in one direction, with the edges of
 * their paths (root first; DOWNSTREAM paths run with the data, UPSTREAM ones against it).
 * Only the root counts as expanded: the walk gives one shortest path per entity, so another
 * entity's other edges appear once it is expanded itself (a click).
 */
export function withReached(
  graph: LineageGraph,
  root: EntitySummary,
  direction: 'UPSTREAM' | 'DOWNSTREAM',
  reached: readonly Reached[],
  partial = false,
): LineageGraph {
  const nodes = new Map(graph.nodes)
  const edges = new Set(graph.edges)
  const expanded = new Set(graph.expanded)
  nodes.set(root.urn, nodes.get(root.urn) ?? root)
  expanded.add(root.urn)
  for (const r of reached) {
    if (!nodes.has(r.entity.urn)) nodes.set(r.entity.urn, r.entity)
  }
  for (const r of reached) {
    for (const p of r.paths ?? []) {
      const urns = (p?.path ?? []).flatMap((e) => (e ? [e.urn] : []))
      if (urns[0] !== root.urn) urns.unshift(root.urn)
      if (urns.at(-1) !== r.entity.urn) urns.push(r.entity.urn)
      for (let i = 0; i + 1 < urns.length; i++) {
        const [a = '', b = ''] = [urns[i], urns[i + 1]]
        if (!nodes.has(a) || !nodes.has(b)) continue
        edges.add(direction === 'DOWNSTREAM' ? edgeKey(a, b) : edgeKey(b, a))
      }
    }
  }
  return { nodes, edges, expanded, partial: graph.partial === true || partial }
}
