type Scalar = string | number | boolean

/** One criterion of DataHub's `Filter` (`value` from older clients, or `values`). */
export interface SearchCriterion {
  field: string
  value?: Scalar
  values?: Scalar[]
  condition?: string
  negated?: boolean
}

/** DataHub's `com.linkedin.metadata.query.filter.Filter`: an OR of AND groups (or the older `criteria`). */
export interface SearchFilter {
  or?: { and: SearchCriterion[] }[]
  criteria?: SearchCriterion[]
}

/** The `searchAcrossEntities` request the metadata service sends to the search index. */
export interface EntitySearchBody {
  readonly input: string
  /** Entity types; empty means all. */
  readonly entities: string[]
  readonly start: number
  readonly count: number
  readonly filter?: SearchFilter
  readonly sortCriteria?: { field: string; order: 'ASCENDING' | 'DESCENDING' }[]
  readonly searchFlags?: { readonly includeSoftDeleted?: boolean; readonly skipAggregates?: boolean }
}

/** The part of DataHub's `SearchResult` the metadata service reads: the page's URNs and the total. */
export interface EntitySearchAnswer {
  readonly numEntities: number
  readonly entities: readonly string[]
}

/**
 * The search index as the metadata service sees it: DataHub's `searchAcrossEntities`. In one
 * process it is the search service itself; in split mode, {@link HttpEntitySearch}. Its
 * mistakes (unknown field, bad query) are domain errors (`InvalidInputError`).
 */
export interface EntitySearch {
  /** One page of URNs matching a query and filter, in the requested order. */
  searchAcrossEntities(body: EntitySearchBody): Promise<EntitySearchAnswer>
}
