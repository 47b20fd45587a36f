import type { CatalogContext } from '../context.js'
import type { FacetFilter } from './search-input.js'
import { combineFilters, type SearchFilter } from './view-apply.js'

/** Group memberships read for the caller, at most. */
const MAX_GROUPS = 1_000

/** The caller and the groups it belongs to: who may see the unpublished documents they own. */
async function callerAndGroups(ctx: CatalogContext): Promise<string[]> {
  const page = await ctx.client.relationships({
    urn: ctx.actor,
    direction: 'OUTGOING',
    types: ['IsMemberOfGroup', 'IsMemberOfNativeGroup'],
    start: 0,
    count: MAX_GROUPS,
  })
  return [ctx.actor, ...page.relationships.map((r) => r.entity)]
}

/** One criterion of a search filter. */
export type Criterion = Record<string, unknown> & FacetFilter

const criterion = (field: string, values: readonly string[], negated = false): Criterion => ({
  field,
  values: [...values],
  condition: 'EQUAL',
  negated,
})

/**
 * DataHub's document visibility (DocumentSearchFilterUtils, DefaultEntityFiltersUtil): a document
 * is found when it is published, or unpublished and owned by the caller or one of its groups;
 * with `globalOnly`, documents kept to their assets' context (`showInGlobalContext` false) are
 * not. Entities that are not documents have no state and pass the first clause.
 */
export async function documentVisibility(ctx: CatalogContext, globalOnly: boolean): Promise<SearchFilter> {
  const global = globalOnly ? [criterion('showInGlobalContext', ['false'], true)] : []
  return {
    or: [
      { and: [criterion('state', ['UNPUBLISHED'], true), ...global] },
      {
        and: [
          criterion('state', ['UNPUBLISHED']),
          criterion('owners', await callerAndGroups(ctx)),
          ...global,
        ],
      },
    ],
  }
}

/** `filter` narrowed to what the caller may see of documents, when documents are searched. */
export async function withDocumentVisibility(
  ctx: CatalogContext,
  entities: readonly string[],
  filter: SearchFilter,
): Promise<SearchFilter> {
  if (!entities.includes('document')) return filter
  return combineFilters(filter, await documentVisibility(ctx, true))
}
