import type { Reached } from '../lib/lineage-graph.js'
import { graphql } from './client.js'
import { LINEAGE_HOPS } from './queries.js'
import type { LineageHopsAnswer } from './types.js'

/** The hop choices: DataHub's `degree` facet values ("3+" reaches every hop). */
export const HOP_CHOICES = [1, 2, 3] as const
const PAGE = 1000
/** Entities read per direction at most; past it the graph is marked partial. */
export const MAX_REACHED = 5000

const degrees = (hops: number) => ['1', '2', '3+'].slice(0, Math.min(hops, 3))

/**
 * Everything `searchAcrossLineage` reaches within `hops` in one direction, page by page, with
 * its paths; `partial` when the walk or this reader stopped at a bound.
 */
export async function reachedWithin(
  urn: string,
  direction: 'UPSTREAM' | 'DOWNSTREAM',
  hops: number,
): Promise<{ reached: Reached[]; partial: boolean }> {
  const reached: Reached[] = []
  let partial = false
  for (let start = 0; start < MAX_REACHED; start += PAGE) {
    const answer = await graphql<LineageHopsAnswer>(LINEAGE_HOPS, {
      input: {
        urn,
        direction,
        query: '*',
        start,
        count: PAGE,
        orFilters: [{ and: [{ field: 'degree', values: degrees(hops) }] }],
      },
    })
    const page = answer.searchAcrossLineage
    reached.push(...page.searchResults)
    partial ||= page.isPartial === true
    if (page.searchResults.length === 0 || start + page.searchResults.length >= page.total)
      return { reached, partial }
  }
  return { reached, partial: true }
}
