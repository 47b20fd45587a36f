import { InvalidInputError } from '@catalog/core'
import type { LineageAnswer } from '../clients/metadata-client.js'
import type { SearchAnswer } from '../clients/search-client.js'
import type { CatalogContext } from '../context.js'
import { typeNameOf } from './entities.js'
import {
  DEGREE,
  type Direction,
  degreeFacet,
  degreeFilter,
  explored,
  filterGroups,
  type LineageFlags,
  refuseUnsupportedFlags,
  withoutDegree,
} from './lineage-input.js'
import { scrollIdOf, searchOf, startOf } from './search.js'
import {
  entityNames,
  type FacetFilter,
  type Flags,
  type OrFilters,
  toFacets,
  toFilter,
  toFlags,
} from './search-input.js'
import { viewGroups } from './view-apply.js'

/** DataHub's page size when `count` is not given. */
const DEFAULT_COUNT = 10
/** Lineage results read at most (the metadata service's largest page). */
const LINEAGE_LIMIT = 10_000
/** URN values one search filter may carry, all its groups together (under the search bounds). */
const URN_VALUES_PER_SEARCH = 4_000
const URN_VALUES_PER_GROUP = 1_000

interface LineageSearchInput extends LineageFlags {
  readonly urn?: string | null
  readonly direction: Direction
  readonly types?: readonly string[] | null
  readonly query?: string | null
  readonly start?: number | null
  readonly count?: number | null
  readonly filters?: readonly FacetFilter[] | null
  readonly orFilters?: OrFilters
  readonly searchFlags?: Flags
  readonly lineageFlags?: LineageFlags | null
  readonly viewUrn?: string | null
  readonly sortInput?: unknown
}

interface Hit {
  readonly relationship: LineageAnswer['relationships'][number]
  readonly matchedFields: readonly { name: string; value: string }[]
}

/**
 * DataHub's search across lineage: the entities the lineage walk reaches (bounded by the
 * `degree` filter and the metadata service's caps), narrowed by the search query, types and
 * filters, ordered by degree then URN, with a `degree` facet beside the search facets.
 */
async function searchLineage(ctx: CatalogContext, input: LineageSearchInput, start: number) {
  if (!input.urn) throw new InvalidInputError('urn is required')
  ctx.registry.resolveUrn(input.urn)
  if (input.sortInput) throw new InvalidInputError('sortInput is not supported for lineage search yet')
  refuseUnsupportedFlags(input, input.lineageFlags)
  const groups = await viewGroups(ctx, input.viewUrn, filterGroups(input.orFilters, input.filters))
  const degrees = degreeFilter(groups)
  const answer = await ctx.client.lineage({
    urn: input.urn,
    direction: input.direction,
    maxHops: degrees.maxHops,
    count: LINEAGE_LIMIT,
    ...(input.searchFlags?.includeSoftDeleted === true ? { includeSoftDeleted: true } : {}),
  })
  const reached = answer.relationships.filter((r) => degrees.accepts(r.degree) && typeNameOf(r.entity))
  const searched = await searchAmong(ctx, input, withoutDegree(groups), reached)
  const hits: Hit[] = reached
    .filter((r) => searched.matches.has(r.entity))
    .map((r) => ({ relationship: r, matchedFields: searched.matches.get(r.entity) ?? [] }))
  const count = input.count ?? DEFAULT_COUNT
  const page = hits.slice(start, start + count)
  return {
    start,
    count: page.length,
    total: hits.length,
    searchResults: page.map((h) => ({
      entity: { urn: h.relationship.entity },
      insights: null,
      matchedFields: h.matchedFields.map((m) => ({ name: m.name, value: m.value, entity: null })),
      paths: [{ path: h.relationship.path.map((urn) => (typeNameOf(urn) ? { urn } : null)) }],
      degree: h.relationship.degree,
      degrees: [h.relationship.degree],
      explored: explored(answer, h.relationship.degree),
      truncatedChildren: !explored(answer, h.relationship.degree),
      ignoredAsHop: false,
    })),
    facets: [...toFacets(searched.facets), degreeFacet(hits.map((h) => h.relationship.degree))],
    freshness: null,
    lineageSearchPath: null,
    // Also partial when the walk found more than one read of lineage holds.
    isPartial: answer.isPartial || answer.total > answer.relationships.length,
    pageEnd: start + count,
  }
}

/**
 * Searches the index among the reached URNs (in slices that keep the filter under the search
 * service's bounds), returning each hit's matched fields and the facets summed over slices.
 */
async function searchAmong(
  ctx: CatalogContext,
  input: LineageSearchInput,
  groups: FacetFilter[][],
  reached: readonly { entity: string }[],
) {
  const matches = new Map<string, readonly { name: string; value: string }[]>()
  const facets = new Map<string, { name: string; displayName: string; counts: Map<string, number> }>()
  const userValues = groups.flat().reduce((n, c) => n + (c.values?.length ?? 0), 0)
  const slice = Math.max(
    1,
    Math.min(
      URN_VALUES_PER_GROUP,
      Math.floor((URN_VALUES_PER_SEARCH - userValues) / Math.max(groups.length, 1)),
    ),
  )
  const urns = reached.map((r) => r.entity)
  const search = searchOf(ctx)
  for (let i = 0; i < urns.length; i += slice) {
    const chunk = urns.slice(i, i + slice)
    const urnCriterion: FacetFilter = { field: 'urn', values: chunk }
    const withUrns = (groups.length > 0 ? groups : [[]]).map((g) => ({ and: [...g, urnCriterion] }))
    const answer = await search.searchAcrossEntities({
      input: input.query || '*',
      entities: entityNames(input.types),
      start: 0,
      count: chunk.length,
      ...toFilter(withUrns),
      searchFlags: toFlags(input.searchFlags),
    })
    answer.metadata.urns.forEach((urn, j) => {
      matches.set(urn, answer.metadata.matches[j]?.matchedFields ?? [])
    })
    // Facets summed over slices (each entity is in one slice), in the search service's order.
    for (const agg of answer.metadata.aggregations) {
      if (agg.name === DEGREE) continue
      const facet = facets.get(agg.name) ?? {
        name: agg.name,
        displayName: agg.displayName,
        counts: new Map(),
      }
      facets.set(agg.name, facet)
      for (const v of agg.filterValues)
        facet.counts.set(v.value, (facet.counts.get(v.value) ?? 0) + v.facetCount)
    }
  }
  const summed: SearchAnswer = {
    from: 0,
    pageSize: 0,
    numEntities: matches.size,
    metadata: {
      urns: [],
      matches: [],
      aggregations: [...facets.values()].map((f) => ({
        name: f.name,
        displayName: f.displayName,
        filterValues: [...f.counts].map(([value, facetCount]) => ({ value, facetCount })),
      })),
    },
  }
  return { matches, facets: summed }
}

/** Root lineage search queries. */
export const lineageQueries = {
  searchAcrossLineage: async (_: unknown, { input }: { input: LineageSearchInput }, ctx: CatalogContext) => {
    const { pageEnd: _end, ...page } = await searchLineage(ctx, input, input.start ?? 0)
    return page
  },

  /** Pages by an opaque scroll id; `nextScrollId` is null on the last page. */
  scrollAcrossLineage: async (
    _: unknown,
    { input }: { input: LineageSearchInput & { scrollId?: string | null } },
    ctx: CatalogContext,
  ) => {
    const page = await searchLineage(ctx, input, startOf(input.scrollId))
    return {
      nextScrollId: page.count > 0 && page.pageEnd < page.total ? scrollIdOf(page.pageEnd) : null,
      count: page.count,
      total: page.total,
      searchResults: page.searchResults,
      facets: page.facets,
      freshness: null,
      isPartial: page.isPartial,
    }
  },
}
