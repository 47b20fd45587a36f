import { InvalidInputError } from '@catalog/core'
import {
  expandField,
  type FilterInput,
  filterNamesRemoved,
  isKnownField,
  normalizeFilter,
} from './filters.js'
import { checkLimit, SEARCH_LIMITS } from './limits.js'
import type {
  AutocompleteRequest,
  BrowseRequest,
  BrowseV2Request,
  FacetRequest,
  SearchRequest,
  SortCriterion,
} from './port.js'
import { parseQuery } from './query-parser.js'
import { ENTITY_TYPE_FIELD, type EntitySearchSpec, type SearchSchema } from './search-schema.js'

/** Largest page a search, autocomplete or browse may ask for. */
export const MAX_PAGE_SIZE = 10_000
/** Default and largest number of buckets per facet. */
export const DEFAULT_FACET_VALUES = 20
export const MAX_FACET_VALUES = 1000

export interface SearchParams {
  readonly input: string
  /** Entity types to search; empty means every entity type. */
  readonly entityTypes: readonly string[]
  readonly start: number
  readonly count: number
  readonly filter?: FilterInput | null
  readonly sort?: SortCriterion
  readonly includeSoftDeleted?: boolean
  readonly skipAggregates?: boolean
  readonly maxAggValues?: number
  /**
   * DataHub's `filterNonLatestVersions` search flag: versions of a version set that are not its
   * latest (`isLatest` false) are left out unless this is false.
   */
  readonly filterNonLatestVersions?: boolean
  /**
   * Lifecycle stages whose entities are left out (DataHub hides the stages with `hideInSearch`),
   * unless the filter asks about `lifecycleStage` itself.
   */
  readonly hiddenLifecycleStages?: readonly string[]
}

export interface AutocompleteParams {
  readonly query: string
  readonly entityType: string
  readonly limit: number
  readonly field?: string
  readonly filter?: FilterInput | null
  readonly includeSoftDeleted?: boolean
}

export interface BrowseParams {
  readonly path: string
  readonly entityType: string
  readonly start: number
  readonly limit: number
  readonly filter?: FilterInput | null
  readonly includeSoftDeleted?: boolean
}

export interface BrowseV2Params {
  /** Entity types to browse; empty means every entity type. */
  readonly entityTypes: readonly string[]
  /** The browsed path's entry ids; empty for the root. */
  readonly path: readonly string[]
  /** Search query narrowing the documents (`*` or empty: all). */
  readonly input: string
  readonly start: number
  readonly count: number
  readonly filter?: FilterInput | null
  readonly includeSoftDeleted?: boolean
}

/** The field saying whether a version is its set's latest (`versionProperties.isLatest`). */
export const IS_LATEST = 'isLatest'

/**
 * `req` with its filter narrowed to latest versions (the request's `latestVersionsOnly`): every
 * group also asks `isLatest` not to be false, so entities that are no version, or the latest
 * one, match.
 */
export function latestVersionsOnly(req: SearchRequest): SearchRequest {
  const notOld = {
    field: IS_LATEST,
    fields: expandField(IS_LATEST),
    values: ['false'],
    condition: 'EQUAL' as const,
    negated: true,
  }
  const or = req.filter.or.length > 0 ? req.filter.or.map((g) => [...g, notOld]) : [[notOld]]
  const { latestVersionsOnly: _applied, ...rest } = req
  return { ...rest, filter: { or } }
}

/** The field of an entity's lifecycle stage (`status.lifecycleStage`). */
export const LIFECYCLE_STAGE = 'lifecycleStage'

/** `req` with every filter group also asking its entities not to be in a hidden lifecycle stage. */
export function withoutHiddenStages(req: SearchRequest): SearchRequest {
  const { hiddenLifecycleStages: stages, ...rest } = req
  if (!stages?.length) return rest
  const notHidden = {
    field: LIFECYCLE_STAGE,
    fields: expandField(LIFECYCLE_STAGE),
    values: [...stages],
    condition: 'EQUAL' as const,
    negated: true,
  }
  const or = req.filter.or.length > 0 ? req.filter.or.map((g) => [...g, notHidden]) : [[notHidden]]
  return { ...rest, filter: { or } }
}

/**
 * Checks client parameters against the registry's search fields and builds the validated
 * requests the index port takes. Every mistake is an {@link InvalidInputError} (HTTP 400):
 * unknown entity, field or condition, a bad page, a query that does not parse.
 */
export class RequestBuilder {
  constructor(private readonly schema: SearchSchema) {}

  /** The search view of an entity type; unknown names are an {@link InvalidInputError}. */
  entity(name: string): EntitySearchSpec {
    const spec = this.schema.entity(name)
    if (!spec)
      throw new InvalidInputError(
        `Unknown entity: ${name}. Failed to find entity with name ${name} in EntityRegistry`,
      )
    return spec
  }

  search(p: SearchParams): SearchRequest {
    const specs =
      p.entityTypes.length > 0 ? p.entityTypes.map((e) => this.entity(e)) : this.schema.allEntities()
    checkPage('start', p.start, 'count', p.count)
    const isField = (name: string) => specs.some((s) => s.fields.has(name))
    const query = parseQuery(p.input, (name) => name === 'urn' || isKnownField(name, isField))
    const filter = normalizeFilter(p.filter, isField)
    // DataHub's default: versions that are not the latest are left out (unless the filter asks about them).
    const latestOnly =
      p.filterNonLatestVersions !== false &&
      isField(IS_LATEST) &&
      !filter.or.some((g) => g.some((c) => c.field === IS_LATEST))
    const hidden =
      p.hiddenLifecycleStages?.length &&
      isField(LIFECYCLE_STAGE) &&
      !filter.or.some((g) => g.some((c) => c.field === LIFECYCLE_STAGE))
        ? p.hiddenLifecycleStages
        : undefined
    if (p.sort && !isKnownField(p.sort.field, isField))
      throw new InvalidInputError(`Unknown sort field '${p.sort.field}'`)
    const maxFacetValues = p.maxAggValues ?? DEFAULT_FACET_VALUES
    if (!Number.isInteger(maxFacetValues) || maxFacetValues < 1 || maxFacetValues > MAX_FACET_VALUES)
      throw new InvalidInputError(`maxAggValues must be between 1 and ${MAX_FACET_VALUES}`)
    const facets: FacetRequest[] = []
    if (!p.skipAggregates) {
      const seen = new Set<string>()
      for (const s of specs)
        for (const f of s.facets)
          if (!seen.has(f.field)) {
            seen.add(f.field)
            facets.push(f)
          }
      facets.push({ field: ENTITY_TYPE_FIELD, displayName: 'Type' })
    }
    return {
      entityTypes: specs.map((s) => s.name),
      query,
      filter,
      includeRemoved: p.includeSoftDeleted === true || filterNamesRemoved(filter),
      start: p.start,
      count: p.count,
      facets,
      maxFacetValues,
      ...(p.sort ? { sort: p.sort } : {}),
      ...(latestOnly ? { latestVersionsOnly: true } : {}),
      ...(hidden ? { hiddenLifecycleStages: [...hidden] } : {}),
    }
  }

  autocomplete(p: AutocompleteParams): AutocompleteRequest {
    const spec = this.entity(p.entityType)
    checkPage('start', 0, 'limit', p.limit)
    if (typeof p.query === 'string') {
      checkLimit('characters in the autocomplete query', p.query.length, SEARCH_LIMITS.maxQueryChars)
      checkLimit(
        'words in the autocomplete query',
        p.query.split(/\s+/).filter(Boolean).length,
        SEARCH_LIMITS.maxQueryTerms,
      )
    }
    let fields = spec.autocompleteFields
    if (p.field !== undefined) {
      const name = p.field.endsWith('.keyword') ? p.field.slice(0, -'.keyword'.length) : p.field
      if (!spec.fields.has(name))
        throw new InvalidInputError(`Unknown autocomplete field '${p.field}' for entity ${spec.name}`)
      fields = [name]
    }
    const filter = normalizeFilter(p.filter, (name) => spec.fields.has(name))
    return {
      entityTypes: [spec.name],
      query: p.query,
      fields,
      filter,
      includeRemoved: p.includeSoftDeleted === true || filterNamesRemoved(filter),
      limit: p.limit,
    }
  }

  browse(p: BrowseParams): BrowseRequest {
    const spec = this.entity(p.entityType)
    checkPage('start', p.start, 'limit', p.limit)
    if (typeof p.path !== 'string') throw new InvalidInputError("Parameter 'path' is required")
    checkLimit('characters in the browse path', p.path.length, SEARCH_LIMITS.maxQueryChars)
    const filter = normalizeFilter(p.filter, (name) => spec.fields.has(name))
    return {
      entityType: spec.name,
      path: p.path,
      filter,
      includeRemoved: p.includeSoftDeleted === true || filterNamesRemoved(filter),
      start: p.start,
      limit: p.limit,
    }
  }

  browseV2(p: BrowseV2Params): BrowseV2Request {
    const specs =
      p.entityTypes.length > 0 ? p.entityTypes.map((e) => this.entity(e)) : this.schema.allEntities()
    checkPage('start', p.start, 'count', p.count)
    if (!Array.isArray(p.path) || p.path.some((id) => typeof id !== 'string'))
      throw new InvalidInputError("Parameter 'path' must be a list of strings")
    checkLimit(
      'characters in the browse path',
      p.path.reduce((n, id) => n + id.length, 0),
      SEARCH_LIMITS.maxQueryChars,
    )
    const isField = (name: string) => specs.some((s) => s.fields.has(name))
    const input = typeof p.input === 'string' && p.input.trim() !== '' ? p.input : '*'
    const query = parseQuery(input, (name) => name === 'urn' || isKnownField(name, isField))
    const filter = normalizeFilter(p.filter, isField)
    return {
      entityTypes: specs.map((s) => s.name),
      path: [...p.path],
      query,
      filter,
      includeRemoved: p.includeSoftDeleted === true || filterNamesRemoved(filter),
      start: p.start,
      count: p.count,
    }
  }
}

function checkPage(startName: string, start: number, sizeName: string, size: number): void {
  if (!Number.isInteger(start) || start < 0)
    throw new InvalidInputError(`Parameter '${startName}' must be a non-negative integer, got ${start}`)
  if (!Number.isInteger(size) || size < 0 || size > MAX_PAGE_SIZE)
    throw new InvalidInputError(`Parameter '${sizeName}' must be between 0 and ${MAX_PAGE_SIZE}, got ${size}`)
}
