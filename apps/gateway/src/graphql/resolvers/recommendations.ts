import type { CatalogContext } from '../context.js'
import { typeNameOf } from './entities.js'
import { searchOf } from './search.js'
import { SEARCHED } from './search-input.js'

/** DataHub's modules answered from the search index (`EntitySearchAggregationSource`), in its order. */
interface AggregationModule {
  readonly title: string
  readonly moduleId: string
  readonly renderType: string
  readonly field: string
  readonly maxContent: number
  readonly scenarios: readonly string[]
  /** `TopPlatformsSource`: only platforms with a logo. */
  readonly needsLogo?: boolean
}

const MODULES: readonly AggregationModule[] = [
  {
    title: 'Platforms',
    moduleId: 'Platforms',
    renderType: 'PLATFORM_SEARCH_LIST',
    field: 'platform',
    maxContent: 40,
    scenarios: ['HOME'],
    needsLogo: true,
  },
  {
    title: 'Top Tags',
    moduleId: 'TopTags',
    renderType: 'TAG_SEARCH_LIST',
    field: 'tags',
    maxContent: 10,
    scenarios: ['HOME', 'SEARCH_RESULTS'],
  },
  {
    title: 'Popular Glossary Terms',
    moduleId: 'TopTerms',
    renderType: 'TAG_SEARCH_LIST',
    field: 'glossaryTerms',
    maxContent: 10,
    scenarios: ['HOME', 'SEARCH_RESULTS'],
  },
]
/** DataHub's default number of modules. */
const DEFAULT_LIMIT = 10

interface ListRecommendationsInput {
  readonly userUrn: string
  readonly requestContext?: { readonly scenario: string } | null
  readonly limit?: number | null
}

/** URNs of platforms whose `dataPlatformInfo` has a logo. */
async function withLogo(ctx: CatalogContext, urns: readonly string[]): Promise<Set<string>> {
  const stored = await ctx.client.getEntities(urns, ['dataPlatformInfo'])
  return new Set(urns.filter((urn) => typeof stored.get(urn)?.aspects.dataPlatformInfo?.logoUrl === 'string'))
}

/** One module's content: the most counted values of its field (URNs), each a search on it. */
async function contentOf(
  ctx: CatalogContext,
  module: AggregationModule,
  values: readonly { value: string; facetCount: number }[],
) {
  const urns = values.filter((v) => v.value.startsWith('urn:li:') && v.facetCount > 0)
  const logos = module.needsLogo
    ? await withLogo(
        ctx,
        urns.map((v) => v.value),
      )
    : undefined
  return urns
    .filter((v) => !logos || logos.has(v.value))
    .sort((a, b) => b.facetCount - a.facetCount)
    .slice(0, module.maxContent)
    .map((v) => ({
      value: v.value,
      entity: typeNameOf(v.value) ? { urn: v.value } : null,
      params: {
        searchParams: {
          types: null,
          query: '',
          filters: [{ field: module.field, condition: 'EQUAL', values: [v.value], negated: false }],
        },
        entityProfileParams: null,
        contentParams: { count: v.facetCount },
      },
    }))
}

/**
 * `listRecommendations`, as DataHub's `ListRecommendationsResolver`: the eligible modules of the
 * scenario that have content. Modules built from usage events (recently viewed, searched,
 * edited, most popular) have none here, since this catalog records no usage events.
 */
export const recommendationQueries = {
  listRecommendations: async (
    _: unknown,
    { input }: { input: ListRecommendationsInput },
    ctx: CatalogContext,
  ) => {
    const scenario = input.requestContext?.scenario
    const eligible = MODULES.filter((m) => scenario && m.scenarios.includes(scenario))
    if (eligible.length === 0) return { modules: [] }
    const answer = await searchOf(ctx).searchAcrossEntities({
      input: '*',
      entities: SEARCHED,
      start: 0,
      count: 0,
      searchFlags: { skipHighlighting: true, maxAggValues: Math.max(...eligible.map((m) => m.maxContent)) },
    })
    const modules = []
    for (const module of eligible) {
      const facet = answer.metadata.aggregations.find((a) => a.name === module.field)
      const content = await contentOf(ctx, module, facet?.filterValues ?? [])
      if (content.length > 0) {
        modules.push({
          title: module.title,
          moduleId: module.moduleId,
          renderType: module.renderType,
          content,
        })
      }
    }
    return { modules: modules.slice(0, input.limit ?? DEFAULT_LIMIT) }
  },
}
