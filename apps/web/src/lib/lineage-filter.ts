import type { EntitySummary } from '../api/types.js'
import { platformName, typeLabel } from './display.js'
import type { LineageGraph } from './lineage-graph.js'

/** Entity types and platforms the user chose to hide (by their labels). */
export interface Hidden {
  readonly types: ReadonlySet<string>
  readonly platforms: ReadonlySet<string>
}

export const nothingHidden: Hidden = { types: new Set(), platforms: new Set() }

/** The label an entity is filtered by: its type, and its platform ("none" without one). */
export const typeOf = (e: EntitySummary) => typeLabel(e.type)
export const platformOf = (e: EntitySummary) => platformName(e) ?? 'none'

/** The graph without the hidden entities and their edges; the root always stays. */
export function visibleGraph(graph: LineageGraph, root: string, hidden: Hidden): LineageGraph {
  if (hidden.types.size === 0 && hidden.platforms.size === 0) return graph
  const nodes = new Map(
    [...graph.nodes].filter(
      ([urn, e]) => urn === root || (!hidden.types.has(typeOf(e)) && !hidden.platforms.has(platformOf(e))),
    ),
  )
  const edges = new Set(
    [...graph.edges].filter((k) => {
      const [from = '', to = ''] = k.split('\n')
      return nodes.has(from) && nodes.has(to)
    }),
  )
  return { ...graph, nodes, edges }
}

/** Counts of the graph's entities per type and per platform, each sorted by label. */
export function lineageFacets(graph: LineageGraph): {
  types: [string, number][]
  platforms: [string, number][]
} {
  const count = (label: (e: EntitySummary) => string) => {
    const counts = new Map<string, number>()
    for (const e of graph.nodes.values()) counts.set(label(e), (counts.get(label(e)) ?? 0) + 1)
    return [...counts].sort((a, b) => a[0].localeCompare(b[0]))
  }
  return { types: count(typeOf), platforms: count(platformOf) }
}
