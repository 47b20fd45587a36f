import { InvalidInputError, UnavailableError } from '@catalog/core'
import type { SearchAcrossBody, SearchClient } from '../clients/search-client.js'
import type { CatalogContext } from '../context.js'
import {
  entityName,
  entityNames,
  entitySymbol,
  type FacetFilter,
  type Flags,
  type OrFilters,
  refuseView,
  type SortInput,
  toFacets,
  toFilter,
  toFlags,
  toSearchResults,
  toSort,
} from './search-input.js'

/** DataHub's page size when `count` is not given. */
const DEFAULT_COUNT = 10

interface SearchAcrossInput {
  readonly types?: readonly string[] | null
  readonly query: string
  readonly start?: number | null
  readonly count?: number | null
  readonly filters?: readonly FacetFilter[] | null
  readonly orFilters?: OrFilters
  readonly viewUrn?: string | null
  readonly searchFlags?: Flags
  readonly sortInput?: SortInput | null
}

/** The search client of the request; a clear error on a server without search. */
export function searchOf(ctx: CatalogContext): SearchClient {
  if (!ctx.search) throw new UnavailableError('Search is not available on this server')
  return ctx.search
}

function body(input: SearchAcrossInput, entities: string[], start: number): SearchAcrossBody {
  refuseView(input.viewUrn)
  return {
    input: input.query,
    entities,
    start,
    count: input.count ?? DEFAULT_COUNT,
    ...toFilter(input.orFilters, input.filters),
    ...toSort(input.sortInput),
    searchFlags: toFlags(input.searchFlags),
  }
}

async function results(ctx: CatalogContext, request: SearchAcrossBody) {
  const answer = await searchOf(ctx).searchAcrossEntities(request)
  const searchResults = toSearchResults(answer)
  return {
    start: answer.from,
    count: searchResults.length,
    total: answer.numEntities,
    searchResults,
    facets: toFacets(answer),
    suggestions: [],
  }
}

/** A scroll position as an opaque id (DataHub's are opaque too); what `nextScrollId` hands out. */
export function scrollIdOf(start: number): string {
  return Buffer.from(JSON.stringify({ start })).toString('base64url')
}

/** The start of a scroll id `scrollIdOf` handed out (0 for none); a 400 for any other. */
export function startOf(scrollId: string | null | undefined): number {
  if (!scrollId) return 0
  try {
    const { start } = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as { start?: unknown }
    if (Number.isInteger(start) && (start as number) >= 0) return start as number
  } catch {}
  throw new InvalidInputError(`Invalid scrollId: ${scrollId}`)
}

/** Root search queries. */
export const searchQueries = {
  searchAcrossEntities: (_: unknown, { input }: { input: SearchAcrossInput }, ctx: CatalogContext) =>
    results(ctx, body(input, entityNames(input.types), input.start ?? 0)),

  /** One entity type (`SearchInput`). */
  search: (_: unknown, { input }: { input: SearchAcrossInput & { type: string } }, ctx: CatalogContext) =>
    results(ctx, body(input, [entityName(input.type)], input.start ?? 0)),

  /** Pages by an opaque scroll id; `nextScrollId` is null on the last page. */
  scrollAcrossEntities: async (
    _: unknown,
    { input }: { input: SearchAcrossInput & { scrollId?: string | null } },
    ctx: CatalogContext,
  ) => {
    const start = startOf(input.scrollId)
    const page = await results(ctx, body(input, entityNames(input.types), start))
    const next = start + (input.count ?? DEFAULT_COUNT)
    return {
      nextScrollId: page.searchResults.length > 0 && next < page.total ? scrollIdOf(next) : null,
      count: page.count,
      total: page.total,
      searchResults: page.searchResults,
      facets: page.facets,
    }
  },

  /** Facets only (`count: 0`); `facets` picks which, all of them when absent. */
  aggregateAcrossEntities: async (
    _: unknown,
    { input }: { input: SearchAcrossInput & { facets?: readonly (string | null)[] | null } },
    ctx: CatalogContext,
  ) => {
    const answer = await searchOf(ctx).searchAcrossEntities({
      ...body({ ...input, count: 0 }, entityNames(input.types), 0),
    })
    const wanted = input.facets?.filter((f): f is string => typeof f === 'string')
    const facets = toFacets(answer)
    return { facets: wanted?.length ? facets.filter((f) => wanted.includes(f.field)) : facets }
  },

  /** Entities of each type (every searched type when none are given), zero counts included. */
  getEntityCounts: async (
    _: unknown,
    { input }: { input?: { types?: readonly string[] | null; viewUrn?: string | null } | null },
    ctx: CatalogContext,
  ) => {
    refuseView(input?.viewUrn)
    const search = searchOf(ctx)
    const counts = await Promise.all(
      entityNames(input?.types).map(async (name) => {
        const answer = await search.searchAcrossEntities({
          input: '*',
          entities: [name],
          start: 0,
          count: 0,
          searchFlags: { skipAggregates: true },
        })
        return { entityType: entitySymbol(name), count: answer.numEntities }
      }),
    )
    return { counts }
  },
}
