import type { SearchAnswer } from '../clients/search-client.js'
import type { CatalogContext } from '../context.js'
import { typeNameOf } from './entities.js'
import { searchOf } from './search.js'
import { entitySymbol, SEARCHED } from './search-input.js'
import { applyView } from './view-apply.js'

const PLATFORM = 'platform'
const ENTITY_TYPE = '_entityType'
/** DataHub's `GetQuickFiltersResolver` sizes and priorities. */
const PLATFORM_COUNT = 5
const SOURCE_ENTITY_COUNT = 3
const DATAHUB_ENTITY_COUNT = 2
const PRIORITIZED_SOURCE_ENTITY_TYPES = [
  'dataset',
  'dashboard',
  'dataFlow',
  'dataJob',
  'chart',
  'container',
  'mlModel',
  'mlModelGroup',
  'mlFeature',
  'mlFeatureTable',
  'mlPrimaryKey',
]
const PRIORITIZED_DATAHUB_ENTITY_TYPES = ['domain', 'glossaryTerm', 'corpGroup', 'corpuser']

type Values = SearchAnswer['metadata']['aggregations'][number]['filterValues']

/** The five platforms with most entities, by name. */
function platformFilters(values: Values) {
  return [...values]
    .filter((v) => v.facetCount > 0)
    .sort((a, b) => b.facetCount - a.facetCount)
    .slice(0, PLATFORM_COUNT)
    .map((v) => ({ field: PLATFORM, value: v.value, entity: typeNameOf(v.value) ? { urn: v.value } : null }))
    .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
}

/** The first `max` types of `prioritized` that have entities, as `EntityType` symbols. */
function typeFilters(values: Values, prioritized: readonly string[], max: number) {
  const counts = new Map(values.map((v) => [v.value.toLowerCase(), v]))
  return prioritized
    .map((name) => counts.get(name.toLowerCase()))
    .filter((v) => v !== undefined && v.facetCount > 0)
    .slice(0, max)
    .map((v) => ({ field: ENTITY_TYPE, value: entitySymbol(v?.value as string), entity: null }))
}

/** `getQuickFilters`, as DataHub's `GetQuickFiltersResolver`: from the facets of a `*` search within the view. */
export const quickFilterQueries = {
  getQuickFilters: async (
    _: unknown,
    { input }: { input: { viewUrn?: string | null } },
    ctx: CatalogContext,
  ) => {
    const { entities, filter } = await applyView(ctx, input.viewUrn, SEARCHED, undefined)
    if (entities.length === 0) return { quickFilters: [] }
    const answer = await searchOf(ctx).searchAcrossEntities({
      input: '*',
      entities,
      start: 0,
      count: 0,
      ...(filter ? { filter } : {}),
      searchFlags: { skipHighlighting: true },
    })
    const facet = (name: string) =>
      answer.metadata.aggregations.find((a) => a.name === name)?.filterValues ?? []
    const types = facet(ENTITY_TYPE)
    return {
      quickFilters: [
        ...platformFilters(facet(PLATFORM)),
        ...typeFilters(types, PRIORITIZED_SOURCE_ENTITY_TYPES, SOURCE_ENTITY_COUNT),
        ...typeFilters(types, PRIORITIZED_DATAHUB_ENTITY_TYPES, DATAHUB_ENTITY_COUNT),
      ],
    }
  },
}
