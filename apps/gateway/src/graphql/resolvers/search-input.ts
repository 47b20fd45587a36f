import { InvalidInputError } from '@catalog/core'
import type { SearchAcrossBody, SearchAnswer } from '../clients/search-client.js'
import { ref } from '../mappers/common.js'
import { MAPPINGS } from '../mappers/index.js'
import { typeNameOf, typeNameOfStored } from './entities.js'

/**
 * Entity types a search may name: the searchable ones served here. Ingestion runs are not (their
 * recipes and reports are an ingestion manager's: `listExecutionRequests` lists them), nor
 * connections (their details are a connection manager's).
 */
export const SEARCHABLE_TYPES = [...MAPPINGS.keys()].filter(
  (n) =>
    ![
      'dataPlatform',
      'ownershipType',
      'dataHubAccessToken',
      'dataHubExecutionRequest',
      'dataHubConnection',
    ].includes(n),
)
/**
 * Entity types searched when no `types` are given. Assertions, queries, runs, incidents, tests,
 * version sets and applications are not among DataHub's default search types; forms, columns,
 * dataset relationships, page templates and modules, and documents (whose search applies who
 * may see an unpublished one: `searchDocuments`) are left out too. They show on the assets they are about, or in their own lists.
 */
export const SEARCHED = SEARCHABLE_TYPES.filter(
  (n) =>
    ![
      'assertion',
      'query',
      'dataProcessInstance',
      'incident',
      'test',
      'versionSet',
      'application',
      'form',
      'schemaField',
      'erModelRelationship',
      'dataHubPageTemplate',
      'dataHubPageModule',
      'document',
    ].includes(n),
)
/** GraphQL `EntityType` symbol -> registry entity name, and back. */
const ENTITY_NAMES = new Map([...MAPPINGS].map(([name, m]) => [m.entityType, name]))
const ENTITY_SYMBOLS = new Map([...MAPPINGS].map(([name, m]) => [name, m.entityType]))
const ENTITY_TYPE_FIELD = '_entityType'
/** DataHub's separator of compound facet names (`_entityType␞typeNames`). */
const SEPARATOR = '\u241E'

export interface FacetFilter {
  readonly field: string
  /** Deprecated single value, still sent by DataHub's Python SDK for `env` filters. */
  readonly value?: string | null
  readonly values?: readonly string[] | null
  readonly negated?: boolean | null
  readonly condition?: string | null
}
export type OrFilters = readonly { readonly and?: readonly FacetFilter[] | null }[] | null | undefined
export type Flags = Readonly<Record<string, unknown>> | null | undefined
type Sort = { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' }
export interface SortInput {
  readonly sortCriterion?: Sort | null
  readonly sortCriteria?: readonly Sort[] | null
}

/** Registry entity name of a GraphQL `EntityType` symbol searched here; a 400 otherwise. */
export function entityName(type: string): string {
  const name = ENTITY_NAMES.get(type)
  if (!name || !SEARCHABLE_TYPES.includes(name))
    throw new InvalidInputError(`Entity type ${type} is not searchable here`)
  return name
}

/** The registry names of `types`, or every searched type when none are given. */
export function entityNames(types: readonly string[] | null | undefined): string[] {
  const names = (types ?? []).map(entityName)
  return names.length > 0 ? names : SEARCHED
}

/** `EntityType` symbol of a registry entity name (the name itself when not served). */
export function entitySymbol(name: string): string {
  return ENTITY_SYMBOLS.get(name) ?? name
}

/**
 * DataHub's filter inputs as the search service's filter: `orFilters` win over the legacy
 * `filters`; `_entityType` values are `EntityType` symbols (`DATASET`), turned into entity
 * names as DataHub does (entity names are taken as they are). A filter without `values` takes its
 * deprecated `value`, as DataHub's criterion builder did.
 */
export function toFilter(orFilters: OrFilters, filters?: readonly FacetFilter[] | null) {
  const criterion = (f: FacetFilter) => ({
    field: f.field,
    values: (f.values ?? (f.value == null ? [] : [f.value])).map((v) =>
      f.field === ENTITY_TYPE_FIELD ? (ENTITY_NAMES.get(v) ?? v) : v,
    ),
    condition: f.condition ?? 'EQUAL',
    negated: f.negated ?? false,
  })
  const groups = (orFilters ?? []).map((g) => ({ and: (g.and ?? []).map(criterion) }))
  if (groups.length === 0 && filters?.length) groups.push({ and: filters.map(criterion) })
  return groups.length > 0 ? { filter: { or: groups } } : {}
}

/** The `searchFlags` the search service honours. */
export function toFlags(flags: Flags): Record<string, unknown> {
  const f = flags ?? {}
  return Object.fromEntries(
    [
      'fulltext',
      'skipAggregates',
      'skipHighlighting',
      'maxAggValues',
      'includeSoftDeleted',
      'filterNonLatestVersions',
    ]
      .filter((k) => f[k] !== undefined && f[k] !== null)
      .map((k) => [k, f[k]]),
  )
}

/** `sortInput` as the search service's sort criteria. */
export function toSort(sortInput: SortInput | null | undefined): Pick<SearchAcrossBody, 'sortCriteria'> {
  const sorts = sortInput?.sortCriteria ?? (sortInput?.sortCriterion ? [sortInput.sortCriterion] : [])
  return sorts.length > 0 ? { sortCriteria: sorts.map((s) => ({ field: s.field, order: s.sortOrder })) } : {}
}

/** Views are entities this catalog does not evaluate yet: a clear error, never an unfiltered answer. */
export function refuseView(viewUrn: string | null | undefined): void {
  if (viewUrn) throw new InvalidInputError('Views (viewUrn) are not supported by this catalog yet')
}

/** A facet value as DataHub's GraphQL shows it: entity-type parts as `EntityType` symbols. */
function facetValue(field: string, value: string): string {
  const fields = field.split(SEPARATOR)
  return value
    .split(SEPARATOR)
    .map((part, i) => (fields[i]?.includes(ENTITY_TYPE_FIELD) ? entitySymbol(part) : part))
    .join(SEPARATOR)
}

/** The search service's facets as DataHub's `[FacetMetadata]`. */
export function toFacets(answer: SearchAnswer) {
  return answer.metadata.aggregations.map((facet) => ({
    field: facet.name,
    displayName: facet.displayName,
    entity: null,
    aggregations: facet.filterValues.map((v) => {
      const entity = ref(v.value)
      return {
        value: facetValue(facet.name, v.value),
        count: v.facetCount,
        entity: entity && typeNameOf(entity.urn) ? entity : null,
        displayName: null,
      }
    }),
  }))
}

/** DataHub's `SearchResult` as {@link searchResults} builds it. */
export interface SearchResultValue {
  readonly entity: { readonly urn: string }
  readonly matchedFields: ReadonlyArray<{ name: string; value: string; entity: null }>
  readonly insights: null
  readonly extraProperties: null
}

/**
 * The search service's hits as DataHub's `[SearchResult]` (hits of types not served are left
 * out): how many, and the one at a position, built when asked for (a page of 10,000 is completed
 * in steps, so its results are built in steps too).
 */
export function searchResults(answer: SearchAnswer): {
  readonly count: number
  readonly at: (i: number) => SearchResultValue
} {
  const { urns, matches } = answer.metadata
  const served: number[] = []
  for (let i = 0; i < urns.length; i++) if (typeNameOfStored(urns[i] as string) !== undefined) served.push(i)
  return {
    count: served.length,
    at: (k) => {
      const i = served[k] as number
      return {
        entity: { urn: urns[i] as string },
        matchedFields: (matches[i]?.matchedFields ?? []).map((m) => ({
          name: m.name,
          value: m.value,
          entity: null,
        })),
        insights: null,
        extraProperties: null,
      }
    },
  }
}
