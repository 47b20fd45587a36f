import type { NormalizedFilter } from './filters.js'
import type { QueryNode } from './query-parser.js'

/** A value of a search-document field: strings, numbers (COUNT, DATETIME, DOUBLE) and booleans. */
export type FieldValue = string | number | boolean

/** A search document or one aspect's share of it: field name -> values. */
export type DocumentFields = Readonly<Record<string, readonly FieldValue[]>>

/** Store (or replace) what one aspect contributes to an entity's search document. */
export interface UpsertContribution {
  readonly kind: 'upsert'
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly fields: DocumentFields
}

/** Drop one aspect's contribution (the aspect was deleted); the document keeps the others. */
export interface RemoveContribution {
  readonly kind: 'removeAspect'
  readonly urn: string
  readonly aspect: string
}

/** Drop the whole document (the entity was deleted). */
export interface RemoveDocument {
  readonly kind: 'removeEntity'
  readonly urn: string
}

/** One change to the index, derived from one change-log entry. */
export type IndexChange = UpsertContribution | RemoveContribution | RemoveDocument

/** Sort by a field value (`sort` / `sortCriteria` of DataHub's search). */
export interface SortCriterion {
  readonly field: string
  readonly order: 'ASCENDING' | 'DESCENDING'
}

/** A facet to count over all hits. */
export interface FacetRequest {
  readonly field: string
  readonly displayName: string
}

/** A validated, parsed search. Entity types, fields and conditions were checked by the caller. */
export interface SearchRequest {
  /** Entity types to search (at least one). */
  readonly entityTypes: readonly string[]
  readonly query: QueryNode
  readonly filter: NormalizedFilter
  /** Include soft-deleted documents (`status.removed = true`). */
  readonly includeRemoved: boolean
  readonly start: number
  readonly count: number
  readonly facets: readonly FacetRequest[]
  /** Most buckets per facet (DataHub `maxAggValues`, default 20). */
  readonly maxFacetValues: number
  readonly sort?: SortCriterion
  /**
   * Leave out the versions that are not their set's latest (`isLatest` false; DataHub's
   * `filterNonLatestVersions`). An index applies it with {@link latestVersionsOnly}, and may skip
   * it when it holds no such version (then nothing would be left out).
   */
  readonly latestVersionsOnly?: boolean
  /**
   * Leave out entities in these lifecycle stages (`status.lifecycleStage`: DataHub's stages with
   * `hideInSearch`). An index applies it with {@link withoutHiddenStages}, and may skip it when
   * no entity is in one of them.
   */
  readonly hiddenLifecycleStages?: readonly string[]
}

/** One matched field of a hit, for `matchedFields`. */
export interface MatchedField {
  readonly name: string
  readonly value: string
}

export interface SearchHit {
  readonly urn: string
  readonly entityType: string
  readonly matchedFields: readonly MatchedField[]
}

export interface FacetValue {
  readonly value: string
  readonly count: number
}

export interface FacetResult {
  readonly field: string
  readonly displayName: string
  /** Buckets by count, descending (then value, ascending); empty facets are left out. */
  readonly values: readonly FacetValue[]
}

export interface SearchResultPage {
  /** Total number of hits (all pages). */
  readonly total: number
  readonly hits: readonly SearchHit[]
  /** Counted over all hits, not the page. */
  readonly facets: readonly FacetResult[]
}

/** A validated autocomplete request. */
export interface AutocompleteRequest {
  readonly entityTypes: readonly string[]
  readonly query: string
  /** Fields whose values are suggested (the entity's autocomplete fields, or the one asked for). */
  readonly fields: readonly string[]
  readonly filter: NormalizedFilter
  readonly includeRemoved: boolean
  readonly limit: number
}

export interface AutocompleteSuggestion {
  readonly urn: string
  /** The matching field value that is suggested. */
  readonly text: string
  readonly field: string
}

export interface AutocompleteResultPage {
  readonly suggestions: readonly AutocompleteSuggestion[]
}

/** A validated browse request (DataHub `ESBrowseDAO.browse`). */
export interface BrowseRequest {
  readonly entityType: string
  readonly path: string
  readonly filter: NormalizedFilter
  readonly includeRemoved: boolean
  readonly start: number
  readonly limit: number
}

export interface BrowseGroup {
  /** The next path segment under the browsed path. */
  readonly name: string
  /** Documents with a browse path under `<path>/<name>`. */
  readonly count: number
}

export interface BrowseResultPage {
  /** This page's documents whose browse path equals the path, in URN order. */
  readonly entities: readonly string[]
  /** This page's groups, by count descending then name. */
  readonly groups: readonly BrowseGroup[]
  /** All documents with a browse path equal to the path. */
  readonly numEntities: number
  /** All groups under the path. */
  readonly numGroups: number
  /** Documents with a browse path strictly under the path. */
  readonly totalNumEntities: number
}

/**
 * A validated browseV2 request (DataHub `ESBrowseDAO.browseV2`): the documents of the entity
 * types matching the query and filter whose `browsePathV2` lies strictly under `path`,
 * grouped by their next path entry.
 */
export interface BrowseV2Request {
  /** Entity types browsed (at least one). */
  readonly entityTypes: readonly string[]
  /** The browsed path as its entries' ids, outermost first; empty for the root. */
  readonly path: readonly string[]
  readonly query: QueryNode
  readonly filter: NormalizedFilter
  readonly includeRemoved: boolean
  /** First group of the page. */
  readonly start: number
  /** Groups per page. */
  readonly count: number
}

export interface BrowseV2Group {
  /** The next path entry's id under the browsed path (a URN for containers and the like). */
  readonly name: string
  /** Matching documents whose path goes through this entry. */
  readonly count: number
  /** Some of those documents' paths go deeper than this entry. */
  readonly hasSubGroups: boolean
}

export interface BrowseV2ResultPage {
  /** This page's groups, by count descending then name. */
  readonly groups: readonly BrowseV2Group[]
  /** All groups under the path (at most `MAX_BROWSE_V2_GROUPS`). */
  readonly numGroups: number
  /** Matching documents whose path lies strictly under the browsed path. */
  readonly totalNumEntities: number
}

/** A document as stored: the union of its aspects' contributions. */
export interface IndexedDocument {
  readonly urn: string
  readonly entityType: string
  readonly removed: boolean
  readonly fields: DocumentFields
  /** Aspects that contributed, sorted. */
  readonly aspects: readonly string[]
}

export interface ApplyResult {
  /** Documents rewritten by this call. */
  readonly documentsChanged: number
  readonly cursor: number
}

/** What {@link SearchIndex.applyLog} did: the entries read and the cursor after them. */
export interface LogApplyResult extends ApplyResult {
  readonly entries: number
}

/** Sizes for operators and the benchmark. */
export interface IndexStats {
  readonly documents: number
  readonly cursor: number
  /** Bytes of the index's files on disk (0 for an in-memory or remote index). */
  readonly diskBytes: number
  /** Bytes the index keeps in this process (page cache in use, vocabulary, ...). */
  readonly memoryBytes: number
}

/**
 * The search index port. It holds one document per entity, merged from the contributions of
 * the entity's aspects, and a durable cursor: the change-log position applied last. Every
 * adapter passes the contract suite in `@catalog/search/contract`.
 *
 * Soft-deleted documents (field `removed` holds `true`) are left out of search, autocomplete
 * and browse unless the request includes them.
 */
export interface SearchIndex {
  /** The change-log position applied last (0 for a new index). */
  cursor(): Promise<number>

  /**
   * Applies changes in order and moves the cursor to `cursor`, all in one transaction: either
   * all of it is durable or none. Applying the same changes again changes nothing; the cursor
   * never moves backwards.
   */
  apply(changes: readonly IndexChange[], cursor: number): Promise<ApplyResult>

  /**
   * Optional: derives the index changes of change-log entries itself and applies them as
   * {@link apply} does, moving the cursor to the last entry's `seq`. `entriesJson` is the JSON
   * text of a `ChangeLogEntry[]` (or of a page `{ entries }`): an index on its own thread parses
   * and derives there, so a 16 MB aspect never holds the caller's event loop.
   */
  applyLog?(entriesJson: string): Promise<LogApplyResult>

  search(request: SearchRequest): Promise<SearchResultPage>

  autocomplete(request: AutocompleteRequest): Promise<AutocompleteResultPage>

  browse(request: BrowseRequest): Promise<BrowseResultPage>

  /** Groups of `browsePathsV2` paths one level under a path, with counts (DataHub's browseV2). */
  browseV2(request: BrowseV2Request): Promise<BrowseV2ResultPage>

  /** The stored document of `urn`, or undefined. */
  document(urn: string): Promise<IndexedDocument | undefined>

  /**
   * Wipes every document but keeps the cursor, so the index is rebuilt from what is announced
   * next (`restoreIndices` re-announces stored values through the change log).
   */
  clear(): Promise<void>

  stats(): Promise<IndexStats>

  close(): Promise<void>
}
