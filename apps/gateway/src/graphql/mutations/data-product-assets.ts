import type { GraphQLResolveInfo } from 'graphql'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { searchQueries } from '../resolvers/search.js'
import {
  entitySymbol,
  type FacetFilter,
  type Flags,
  type OrFilters,
  SEARCHED,
} from '../resolvers/search-input.js'
import { currentAspect, resolveInput } from './support.js'

/** DataHub's ListDataProductAssetsResolver page when `start` / `count` are not given. */
const DEFAULT_START = 0
const DEFAULT_COUNT = 10

/** The search input of an asset list (`listDataProductAssets`, `listApplicationAssets`). */
export interface AssetsSearchInput {
  readonly types?: readonly string[] | null
  readonly query?: string | null
  readonly start?: number | null
  readonly count?: number | null
  readonly filters?: readonly FacetFilter[] | null
  readonly orFilters?: OrFilters
  readonly searchFlags?: Flags
}

/** The asset URNs of data product `urn` (`dataProductProperties.assets`), none when it has no properties. */
async function assetsOf(ctx: CatalogContext, urn: string): Promise<string[]> {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'dataProduct') return []
  const assets = (await currentAspect(ctx, ref.urn, 'dataProductProperties'))?.assets
  return (Array.isArray(assets) ? assets : [])
    .map((a) => (a as { destinationUrn?: unknown }).destinationUrn)
    .filter((u): u is string => typeof u === 'string')
}

/**
 * DataHub's `buildFilterWithUrns`: every conjunct of the caller's filter (the legacy `filters` as
 * one conjunct) also requires the URN to be one of `urns`.
 */
function withUrns(urns: readonly string[], input: AssetsSearchInput): OrFilters {
  return withCriterion(input, { field: 'urn', values: urns })
}

/** The caller's filter (the legacy `filters` as one conjunct) with `criterion` added to every conjunct. */
export function withCriterion(input: AssetsSearchInput, criterion: FacetFilter): OrFilters {
  const groups = input.orFilters?.length ? input.orFilters : [{ and: input.filters ?? [] }]
  return groups.map((g) => ({ and: [...(g.and ?? []), criterion] }))
}

/**
 * DataHub's ListDataProductAssetsResolver: a search over the data product's assets only, of the
 * given types (default: the types of the assets), narrowed by the caller's query and filters.
 * A data product without assets answers an empty page without searching.
 */
async function listAssets(
  urn: string,
  input: AssetsSearchInput,
  ctx: CatalogContext,
  info?: GraphQLResolveInfo,
) {
  const assets = await assetsOf(ctx, urn)
  const start = input.start ?? DEFAULT_START
  const count = input.count ?? DEFAULT_COUNT
  if (assets.length === 0) return { start, count, total: 0, searchResults: [] }
  const assetTypes = [...new Set(assets.map((a) => ctx.graph.entityType(a)))]
    .filter((name): name is string => typeof name === 'string' && SEARCHED.includes(name))
    .map(entitySymbol)
  const types = input.types?.length ? input.types : assetTypes
  return searchQueries.searchAcrossEntities(
    undefined,
    {
      input: {
        types,
        query: input.query ?? '*',
        start,
        count,
        orFilters: withUrns(assets, input),
        searchFlags: input.searchFlags,
      },
    },
    ctx,
    info,
  )
}

/** `listDataProductAssets(urn, input)` and `DataProduct.entities(input)`. */
export const dataProductAssetQueries = {
  listDataProductAssets: (
    _: unknown,
    args: { urn: string; input: AssetsSearchInput },
    ctx: CatalogContext,
    info?: GraphQLResolveInfo,
  ) => listAssets(args.urn, args.input, ctx, info),
}

/** `DataProduct.entities(input)`: the same search, of this data product. */
export function dataProductEntities(
  source: EntitySource,
  { input }: { input?: AssetsSearchInput | null },
  ctx: CatalogContext,
  info?: GraphQLResolveInfo,
) {
  return listAssets(source.urn, input ?? {}, ctx, info)
}
