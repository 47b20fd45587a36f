import type { CatalogContext } from '../context.js'
import { searchOf } from './search.js'
import { type Criterion, filterOf, VIEW_ASPECT, type ViewInfo, viewInfoOf } from './view-apply.js'

/** DataHub's page size of `listMyViews` / `listGlobalViews`. */
const DEFAULT_COUNT = 20
/** DataHub's global settings singleton. */
export const GLOBAL_SETTINGS_URN = 'urn:li:globalSettings:0'
export const GLOBAL_SETTINGS_ASPECT = 'globalSettingsInfo'

interface ListViewsInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
  readonly viewType?: string | null
}

/** A `FacetFilter` of a stored criterion. */
function facetFilter(c: Criterion) {
  return {
    field: c.field,
    condition: c.condition ?? 'EQUAL',
    values: c.values ?? [],
    negated: c.negated ?? false,
  }
}

/**
 * DataHub's `DataHubViewMapper` filter: one conjunct is an AND of its criteria, conjuncts of
 * one criterion each an OR; any other shape (written past the GraphQL API) an empty AND.
 */
function viewFilter(filter: ViewInfo['definition']['filter']) {
  const or = filter.or ?? (filter.criteria ? [{ and: filter.criteria }] : [])
  if (or.length === 1) return { operator: 'AND', filters: (or[0]?.and ?? []).map(facetFilter) }
  if (or.length > 1 && or.every((c) => c.and.length === 1))
    return { operator: 'OR', filters: or.map((c) => facetFilter(c.and[0] as Criterion)) }
  return { operator: 'AND', filters: [] }
}

/** The GraphQL `DataHubView` of a stored view (entity types as `EntityType` symbols). */
export function toView(ctx: CatalogContext, urn: string, info: ViewInfo) {
  return {
    __typename: 'DataHubView',
    urn,
    type: 'DATAHUB_VIEW',
    viewType: info.type,
    name: info.name,
    description: info.description ?? null,
    definition: {
      entityTypes: (info.definition.entityTypes ?? [])
        .map((name) => ctx.registry.findEntity(name)?.graphqlType)
        .filter((symbol): symbol is string => typeof symbol === 'string'),
      filter: viewFilter(info.definition.filter ?? {}),
    },
  }
}

/** The views the search index finds for `and`, newest first, as DataHub's list resolvers page them. */
async function listViews(ctx: CatalogContext, input: ListViewsInput, and: Criterion[]) {
  const answer = await searchOf(ctx).searchAcrossEntities({
    input: input.query || '*',
    entities: ['dataHubView'],
    start: input.start ?? 0,
    count: input.count ?? DEFAULT_COUNT,
    filter: filterOf(null, and),
    sortCriteria: [{ field: 'createdAt', order: 'DESCENDING' }],
    searchFlags: { fulltext: true, skipAggregates: true, skipHighlighting: true },
  })
  const stored = await ctx.client.getEntities(answer.metadata.urns, [VIEW_ASPECT])
  const views = answer.metadata.urns.flatMap((urn) => {
    const info = stored.get(urn)?.aspects[VIEW_ASPECT] as ViewInfo | undefined
    return info ? [toView(ctx, urn, info)] : []
  })
  return { start: answer.from, count: answer.pageSize, total: answer.numEntities, views }
}

const criterion = (field: string, value: string): Criterion => ({
  field,
  values: [value],
  condition: 'EQUAL',
  negated: false,
})

/** Root queries of views and the views settings. */
export const viewQueries = {
  /** DataHub's `ListMyViewsResolver`: views the caller created, of `viewType` when given. */
  listMyViews: (_: unknown, { input }: { input: ListViewsInput }, ctx: CatalogContext) =>
    listViews(ctx, input, [
      criterion('createdBy', ctx.actor),
      ...(input.viewType ? [criterion('type', input.viewType)] : []),
    ]),

  /** DataHub's `ListGlobalViewsResolver`: every GLOBAL view. */
  listGlobalViews: (_: unknown, { input }: { input: ListViewsInput }, ctx: CatalogContext) =>
    listViews(ctx, input, [criterion('type', 'GLOBAL')]),

  /** One view by URN; null when there is none (a 400 for a malformed URN). */
  view: async (_: unknown, { urn }: { urn: string }, ctx: CatalogContext) => {
    const info = await viewInfoOf(ctx, urn)
    return info ? toView(ctx, urn, info) : null
  },

  /** DataHub's `GlobalViewsSettingsResolver`: the default view of everyone, null when unset. */
  globalViewsSettings: async (_: unknown, __: unknown, ctx: CatalogContext) => {
    const stored = await ctx.client.getEntities([GLOBAL_SETTINGS_URN], [GLOBAL_SETTINGS_ASPECT])
    const info = stored.get(GLOBAL_SETTINGS_URN)?.aspects[GLOBAL_SETTINGS_ASPECT] as
      | { views?: { defaultView?: string } }
      | undefined
    return { defaultView: info?.views?.defaultView ?? null }
  },
}
