import { InvalidInputError, UnavailableError } from '@catalog/core'
import type { GraphQLResolveInfo } from 'graphql'
import type { SearchAcrossBody, SearchAnswer, SearchClient } from '../clients/search-client.js'
import type { CatalogContext } from '../context.js'
import { inTurns } from '../in-turns.js'
import { hiddenLifecycleStages } from '../mutations/lifecycle-stages.js'
import { withDocumentVisibility } from './document-visibility.js'
import {
  entityName,
  entityNames,
  entitySymbol,
  type FacetFilter,
  type Flags,
  type OrFilters,
  searchResults as resultsOf,
  type SearchResultValue,
  type SortInput,
  toFacets,
  toFlags,
  toSort,
} from './search-input.js'
import { selectsLoadedFields } from './selection.js'
import { applyView, filterOf } from './view-apply.js'

/** Pages longer than this are set up a turn after their search answer arrived. */
const LONG_PAGE = 1_000

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

/** The search of `input` with its view applied (DataHub ignores a view that does not exist). */
async function body(
  ctx: CatalogContext,
  input: SearchAcrossInput,
  types: string[],
  start: number,
): Promise<SearchAcrossBody> {
  const viewed = await applyView(ctx, input.viewUrn, types, filterOf(input.orFilters, input.filters))
  const entities = viewed.entities
  // Documents are found only by whom may see them (DataHub's default entity filters).
  const filter = await withDocumentVisibility(ctx, entities, viewed.filter)
  // DataHub's default: entities in a stage hidden from search are left out, unless asked for.
  const hidden =
    input.searchFlags?.includeHiddenLifecycleStages === true ? [] : await hiddenLifecycleStages(ctx)
  return {
    input: input.query,
    entities,
    start,
    count: input.count ?? DEFAULT_COUNT,
    ...(filter ? { filter } : {}),
    ...toSort(input.sortInput),
    searchFlags: {
      ...toFlags(input.searchFlags),
      ...(hidden.length > 0 ? { hiddenLifecycleStages: hidden } : {}),
    },
  }
}

/** The search service's answer; none searched when a view leaves no entity type (DataHub's empty result). */
function search(ctx: CatalogContext, request: SearchAcrossBody): Promise<SearchAnswer> {
  if (request.entities.length === 0) {
    const metadata = { urns: [], matches: [], aggregations: [] }
    return Promise.resolve({ from: request.start, pageSize: 0, numEntities: 0, metadata })
  }
  return searchOf(ctx).searchAcrossEntities(request)
}

/**
 * A page of results, completed in steps (see {@link inTurns}). When the query selects fields of
 * the entities, each result waits for its entity: its fields then complete at once, one promise
 * per result instead of one per field.
 */
async function results(ctx: CatalogContext, request: SearchAcrossBody, info?: GraphQLResolveInfo) {
  const answer = await search(ctx, request)
  // The answer arrived in this turn (copied from the search worker, or parsed): the list is
  // set up in the next one.
  if (answer.metadata.urns.length > LONG_PAGE) await new Promise((resolve) => setImmediate(resolve))
  const found = resultsOf(answer)
  const loaded = info !== undefined && selectsLoadedFields(info, ['searchResults', 'entity'])
  return {
    start: answer.from,
    count: found.count,
    total: answer.numEntities,
    searchResults: inTurns(
      found.count,
      found.at,
      undefined,
      loaded ? (r: SearchResultValue) => ctx.graph.object(r.entity.urn) : undefined,
    ),
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
  searchAcrossEntities: async (
    _: unknown,
    { input }: { input: SearchAcrossInput },
    ctx: CatalogContext,
    info?: GraphQLResolveInfo,
  ) => results(ctx, await body(ctx, input, entityNames(input.types), input.start ?? 0), info),

  /** One entity type (`SearchInput`). */
  search: async (
    _: unknown,
    { input }: { input: SearchAcrossInput & { type: string } },
    ctx: CatalogContext,
    info: GraphQLResolveInfo,
  ) => results(ctx, await body(ctx, input, [entityName(input.type)], input.start ?? 0), info),

  /** Pages by an opaque scroll id; `nextScrollId` is null on the last page. */
  scrollAcrossEntities: async (
    _: unknown,
    { input }: { input: SearchAcrossInput & { scrollId?: string | null } },
    ctx: CatalogContext,
    info: GraphQLResolveInfo,
  ) => {
    const start = startOf(input.scrollId)
    const page = await results(ctx, await body(ctx, input, entityNames(input.types), start), info)
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
    const answer = await search(ctx, await body(ctx, { ...input, count: 0 }, entityNames(input.types), 0))
    const wanted = input.facets?.filter((f): f is string => typeof f === 'string')
    const facets = toFacets(answer)
    return { facets: wanted?.length ? facets.filter((f) => wanted.includes(f.field)) : facets }
  },

  /** Entities of each type (every searched type when none are given) within the view, zero counts included. */
  getEntityCounts: async (
    _: unknown,
    { input }: { input?: { types?: readonly string[] | null; viewUrn?: string | null } | null },
    ctx: CatalogContext,
  ) => {
    const client = searchOf(ctx)
    const counts = await Promise.all(
      entityNames(input?.types).map(async (name) => {
        const viewed = await applyView(ctx, input?.viewUrn, [name], undefined)
        const entities = viewed.entities
        if (entities.length === 0) return { entityType: entitySymbol(name), count: 0 }
        const filter = await withDocumentVisibility(ctx, entities, viewed.filter)
        const answer = await client.searchAcrossEntities({
          input: '*',
          entities,
          start: 0,
          count: 0,
          ...(filter ? { filter } : {}),
          searchFlags: { skipAggregates: true },
        })
        return { entityType: entitySymbol(name), count: answer.numEntities }
      }),
    )
    return { counts }
  },
}
