import { InvalidInputError, UnavailableError } from '@catalog/core'
import type { SearchAcrossBody, SearchAnswer } from '../clients/search-client.js'
import type { CatalogContext } from '../context.js'
import { ref } from '../mappers/common.js'
import { MAPPINGS } from '../mappers/index.js'
import { typeNameOf } from './entities.js'

/** Entity types `searchAcrossEntities` looks in when no `types` are given: the searchable ones served here. */
const SEARCHED = [...MAPPINGS.keys()].filter(
  (n) => !['dataPlatform', 'ownershipType', 'dataHubAccessToken'].includes(n),
)
/** GraphQL `EntityType` symbol -> registry entity name. */
const ENTITY_NAMES = new Map([...MAPPINGS].map(([name, m]) => [m.entityType, name]))

interface FacetFilter {
  readonly field: string
  readonly values?: readonly string[] | null
  readonly negated?: boolean | null
  readonly condition?: string | null
}

interface SearchAcrossInput {
  readonly types?: readonly string[] | null
  readonly query: string
  readonly start?: number | null
  readonly count?: number | null
  readonly filters?: readonly FacetFilter[] | null
  readonly orFilters?: readonly { readonly and?: readonly FacetFilter[] | null }[] | null
  readonly viewUrn?: string | null
  readonly searchFlags?: Record<string, unknown> | null
  readonly sortInput?: {
    readonly sortCriterion?: { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' } | null
    readonly sortCriteria?: readonly { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' }[] | null
  } | null
}

const criterion = (f: FacetFilter) => ({
  field: f.field,
  values: f.values ?? [],
  condition: f.condition ?? 'EQUAL',
  negated: f.negated ?? false,
})

/** DataHub's `SearchAcrossEntitiesInput` as the search service's request body. */
function toBody(input: SearchAcrossInput): SearchAcrossBody {
  if (input.viewUrn) throw new InvalidInputError('Views (viewUrn) are not supported by this catalog yet')
  const entities = (input.types ?? []).map((t) => {
    const name = ENTITY_NAMES.get(t)
    if (!name || !SEARCHED.includes(name))
      throw new InvalidInputError(`Entity type ${t} is not searchable here`)
    return name
  })
  const groups = (input.orFilters ?? []).map((g) => ({ and: (g.and ?? []).map(criterion) }))
  if (groups.length === 0 && input.filters?.length) groups.push({ and: input.filters.map(criterion) })
  const sorts =
    input.sortInput?.sortCriteria ?? (input.sortInput?.sortCriterion ? [input.sortInput.sortCriterion] : [])
  const flags = input.searchFlags ?? {}
  return {
    input: input.query,
    entities: entities.length > 0 ? entities : SEARCHED,
    start: input.start ?? 0,
    count: input.count ?? 10,
    ...(groups.length > 0 ? { filter: { or: groups } } : {}),
    ...(sorts.length > 0 ? { sortCriteria: sorts.map((s) => ({ field: s.field, order: s.sortOrder })) } : {}),
    searchFlags: Object.fromEntries(
      ['fulltext', 'skipAggregates', 'skipHighlighting', 'maxAggValues', 'includeSoftDeleted']
        .filter((k) => flags[k] !== undefined && flags[k] !== null)
        .map((k) => [k, flags[k]]),
    ),
  }
}

/** The search service's answer as DataHub's `SearchResults`. */
function toResults(answer: SearchAnswer) {
  const searchResults = answer.metadata.urns
    .map((urn, i) => ({
      entity: { urn },
      matchedFields: (answer.metadata.matches[i]?.matchedFields ?? []).map((m) => ({
        name: m.name,
        value: m.value,
        entity: null,
      })),
      insights: null,
      extraProperties: null,
    }))
    .filter((r) => typeNameOf(r.entity.urn) !== undefined)
  return {
    start: answer.from,
    count: searchResults.length,
    total: answer.numEntities,
    searchResults,
    facets: answer.metadata.aggregations.map((facet) => ({
      field: facet.name,
      displayName: facet.displayName,
      entity: null,
      aggregations: facet.filterValues.map((v) => {
        const entity = ref(v.value)
        return {
          value: v.value,
          count: v.facetCount,
          entity: entity && typeNameOf(entity.urn) ? entity : null,
          displayName: null,
        }
      }),
    })),
    suggestions: [],
  }
}

async function searchAcrossEntities(
  _: unknown,
  { input }: { input: SearchAcrossInput },
  ctx: CatalogContext,
) {
  if (!ctx.search) throw new UnavailableError('Search is not available on this server')
  return toResults(await ctx.search.searchAcrossEntities(toBody(input)))
}

/** Root search queries. */
export const searchQueries = { searchAcrossEntities }
