import { InvalidInputError } from '@catalog/core'
import type { SearchAcrossBody } from '../clients/search-client.js'
import type { CatalogContext } from '../context.js'
import { type FacetFilter, type OrFilters, toFilter } from './search-input.js'

/** A stored `Criterion` of a view's filter. */
export type Criterion = FacetFilter
/** DataHub's `DataHubViewInfo` aspect, as stored. */
export interface ViewInfo {
  readonly name: string
  readonly description?: string
  readonly type: 'PERSONAL' | 'GLOBAL'
  readonly definition: {
    readonly entityTypes: readonly string[]
    readonly filter: {
      readonly or?: readonly { and: readonly Criterion[] }[]
      readonly criteria?: readonly Criterion[]
    }
  }
  readonly created: { readonly time: number; readonly actor: string }
  readonly lastModified: { readonly time: number; readonly actor: string }
}
export type SearchFilter = SearchAcrossBody['filter']

const VIEW_ENTITY = 'dataHubView'
export const VIEW_ASPECT = 'dataHubViewInfo'

/**
 * The stored info of view `urn`: undefined when it is not a view or does not exist (DataHub then
 * searches without a view); a 400 for a malformed URN.
 */
export async function viewInfoOf(ctx: CatalogContext, urn: string): Promise<ViewInfo | undefined> {
  let entity: string
  try {
    entity = ctx.registry.resolveUrn(urn).entity.name
  } catch (err) {
    throw new InvalidInputError((err as Error).message, { cause: err })
  }
  if (entity !== VIEW_ENTITY) return undefined
  const found = (await ctx.client.getEntities([urn], [VIEW_ASPECT])).get(urn)?.aspects[VIEW_ASPECT]
  return found as ViewInfo | undefined
}

/** The disjuncts of a stored filter (the legacy `criteria` as one conjunct). */
function disjunctsOf(filter: ViewInfo['definition']['filter']): { and: readonly Criterion[] }[] {
  if (filter.or) return [...filter.or]
  return filter.criteria?.length ? [{ and: filter.criteria }] : []
}

/**
 * DataHub's `SearchUtils.combineFilters`: the base filter AND the view's, in disjunctive normal
 * form (every base conjunct joined with every view conjunct); either absent leaves the other.
 */
export function combineFilters(base: SearchFilter, view: SearchFilter): SearchFilter {
  if (!view?.or.length) return base
  if (!base?.or.length) return view
  return { or: base.or.flatMap((b) => view.or.map((v) => ({ and: [...b.and, ...v.and] }))) }
}

/** DataHub's filter inputs as the search service's filter, or undefined for none. */
export function filterOf(orFilters: OrFilters, filters?: readonly FacetFilter[] | null): SearchFilter {
  const out = toFilter(orFilters, filters)
  return 'filter' in out ? out.filter : undefined
}

/** DataHub's `SearchUtils.intersectEntityTypes`: an empty list means every type. */
export function intersectTypes(base: readonly string[], view: readonly string[]): string[] {
  if (base.length === 0) return [...view]
  if (view.length === 0) return [...base]
  return base.filter((t) => view.includes(t))
}

/** Entities and filter of a search after applying view `viewUrn` (none, or an unknown view: as given). */
export async function applyView(
  ctx: CatalogContext,
  viewUrn: string | null | undefined,
  entities: readonly string[],
  filter: SearchFilter,
): Promise<{ entities: string[]; filter: SearchFilter }> {
  const info = viewUrn ? await viewInfoOf(ctx, viewUrn) : undefined
  if (!info) return { entities: [...entities], filter }
  const viewFilter = filterOf(disjunctsOf(info.definition.filter))
  return {
    entities: intersectTypes(entities, info.definition.entityTypes ?? []),
    filter: combineFilters(filter, viewFilter),
  }
}

/**
 * Filter groups (DataHub's `orFilters`, one conjunct per group) ANDed with view `viewUrn`'s
 * filter, as DataHub's lineage search does: `FilterUtils.combineFilters` of the input and the
 * view's filter; the view's entity types are not applied there. None or an unknown view: as given.
 */
export async function viewGroups(
  ctx: CatalogContext,
  viewUrn: string | null | undefined,
  groups: readonly FacetFilter[][],
): Promise<FacetFilter[][]> {
  const info = viewUrn ? await viewInfoOf(ctx, viewUrn) : undefined
  const view = info ? disjunctsOf(info.definition.filter).map((d) => [...d.and]) : []
  if (view.length === 0) return groups.map((g) => [...g])
  if (groups.length === 0) return view
  return groups.flatMap((g) => view.map((v) => [...g, ...v]))
}
