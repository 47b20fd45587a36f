import {
  browsePathV2Node,
  type FilterInput,
  isUrn,
  type NormalizedFilter,
  type RequestBuilder,
  type SearchIndex,
  type SearchParams,
  type SearchRequest,
  type SearchResultPage,
  type SortCriterion,
} from '@catalog/search'
import type { BrowseResultV2Value, BrowseV2Body } from '../schemas/browse-v2.js'
import type {
  AutocompleteBody,
  AutocompleteResultValue,
  BrowseBody,
  BrowseResultValue,
  FilterBody,
  ListResultValue,
  SearchAcrossEntitiesBody,
  SearchBody,
  SearchResultValue,
} from '../schemas/search.js'

type Flags = SearchBody['searchFlags']
type SortInput = { field: string; order?: 'ASCENDING' | 'DESCENDING' }

/**
 * Search, autocomplete, browse and list over the search index, in DataHub's request and
 * response shapes (the spec's fields and DataHub's side by side). Requests are checked by the
 * {@link RequestBuilder}; every mistake is an InvalidInputError.
 */
export class SearchService {
  constructor(
    private readonly index: SearchIndex,
    private readonly requests: RequestBuilder,
    /** Awaited before every read: brings the index up to the writes acknowledged so far. */
    private readonly beforeRead: () => Promise<void> = async () => {},
  ) {}

  /** `POST /entities?action=search`. */
  async search(body: SearchBody): Promise<SearchResultValue> {
    return this.run({
      input: body.input,
      entityTypes: [body.entity],
      start: body.start,
      count: body.count,
      ...common(body.filter, firstSort(body.sort, body.sortCriteria), body.searchFlags),
    })
  }

  /** `POST /entities?action=searchAcrossEntities`: several (or all) entity types at once. */
  async searchAcrossEntities(body: SearchAcrossEntitiesBody): Promise<SearchResultValue> {
    return this.run({
      input: body.input,
      entityTypes: body.entities ?? [],
      start: body.start,
      count: body.count,
      ...common(body.filter, firstSort(undefined, body.sortCriteria), body.searchFlags),
    })
  }

  /** `POST /entities?action=filter`: every entity matching a filter, as a search result. */
  async filter(body: FilterBody): Promise<SearchResultValue> {
    return this.run({
      input: '*',
      entityTypes: [body.entity],
      start: body.start,
      count: body.count,
      ...common(body.filter, firstSort(body.sort, undefined), undefined),
    })
  }

  /** `POST /entities?action=list`: URNs of an entity type (optionally filtered), DataHub's ListResult. */
  async list(body: FilterBody): Promise<ListResultValue> {
    const request = this.requests.search({
      input: '*',
      entityTypes: [body.entity],
      start: body.start,
      count: body.count,
      skipAggregates: true,
      ...common(body.filter, firstSort(body.sort, undefined), undefined),
    })
    await this.beforeRead()
    const page = await this.index.search(request)
    return { entities: page.hits.map((h) => h.urn), start: body.start, count: body.count, total: page.total }
  }

  /** `POST /entities?action=autocomplete`. */
  async autocomplete(body: AutocompleteBody): Promise<AutocompleteResultValue> {
    const start = body.start ?? 0
    const request = this.requests.autocomplete({
      query: body.query,
      entityType: body.entity,
      limit: body.limit,
      ...(body.field !== undefined ? { field: body.field } : {}),
      ...(body.filter ? { filter: body.filter as FilterInput } : {}),
      ...(body.searchFlags?.includeSoftDeleted ? { includeSoftDeleted: true } : {}),
    })
    await this.beforeRead()
    const page = await this.index.autocomplete({ ...request, limit: start + request.limit })
    const hits = page.suggestions.slice(start)
    return {
      query: body.query,
      suggestions: hits.map((s) => s.text),
      entities: hits.map((s) => ({ urn: s.urn })),
    }
  }

  /** `POST /entities?action=browse`. */
  async browse(body: BrowseBody): Promise<BrowseResultValue> {
    const request = this.requests.browse({
      path: body.path,
      entityType: body.entity,
      start: body.start,
      limit: body.limit,
      ...(body.filter ? { filter: body.filter as FilterInput } : {}),
      ...(body.searchFlags?.includeSoftDeleted ? { includeSoftDeleted: true } : {}),
    })
    await this.beforeRead()
    const page = await this.index.browse(request)
    return {
      entities: page.entities.map((urn) => ({ name: urn, urn })),
      groups: [...page.groups],
      metadata: { path: body.path, totalNumEntities: page.totalNumEntities, groups: [...page.groups] },
      from: body.start,
      pageSize: body.limit,
      numEntities: page.numEntities,
      numGroups: page.numGroups,
      numElements: page.numGroups + page.numEntities,
    }
  }

  /** `POST /entities?action=browseV2`: groups of `browsePathsV2` paths one level under a path. */
  async browseV2(body: BrowseV2Body): Promise<BrowseResultV2Value> {
    const request = this.requests.browseV2({
      entityTypes: body.entities ?? [],
      path: body.path,
      input: body.input ?? '*',
      start: body.start,
      count: body.count,
      ...(body.filter ? { filter: body.filter as FilterInput } : {}),
      ...(body.searchFlags?.includeSoftDeleted ? { includeSoftDeleted: true } : {}),
    })
    await this.beforeRead()
    const page = await this.index.browseV2(request)
    return {
      groups: page.groups.map((g) => ({ ...g, ...(isUrn(g.name) ? { urn: g.name } : {}) })),
      metadata: { path: browsePathV2Node(request.path), totalNumEntities: page.totalNumEntities },
      from: body.start,
      pageSize: body.count,
      numGroups: page.numGroups,
    }
  }

  private async run(params: SearchParams): Promise<SearchResultValue> {
    const request = this.requests.search(params)
    await this.beforeRead()
    return toSearchResult(request, await this.index.search(request))
  }
}

function common(
  filter: SearchBody['filter'],
  sort: SortCriterion | undefined,
  flags: Flags,
): Omit<SearchParams, 'input' | 'entityTypes' | 'start' | 'count'> {
  return {
    ...(filter ? { filter: filter as FilterInput } : {}),
    ...(sort ? { sort } : {}),
    ...(flags?.includeSoftDeleted ? { includeSoftDeleted: true } : {}),
    ...(flags?.skipAggregates ? { skipAggregates: true } : {}),
    ...(flags?.maxAggValues !== undefined ? { maxAggValues: flags.maxAggValues } : {}),
    ...(flags?.filterNonLatestVersions === false ? { filterNonLatestVersions: false } : {}),
    ...(flags?.hiddenLifecycleStages?.length ? { hiddenLifecycleStages: flags.hiddenLifecycleStages } : {}),
  }
}

function firstSort(
  sort: SortInput | undefined,
  criteria: readonly SortInput[] | undefined,
): SortCriterion | undefined {
  const s = sort ?? criteria?.[0]
  return s ? { field: s.field, order: s.order ?? 'ASCENDING' } : undefined
}

/** The spec's search result and DataHub's facets beside it. */
function toSearchResult(request: SearchRequest, page: SearchResultPage): SearchResultValue {
  const urns = page.hits.map((h) => h.urn)
  const selected = selectedValues(request.filter)
  return {
    from: request.start,
    pageSize: request.count,
    numEntities: page.total,
    entities: urns,
    metadata: {
      urns,
      matches: page.hits.map((h) => ({
        matchedFields: h.matchedFields.map((m) => ({ name: m.name, value: m.value })),
      })),
      searchResultMetadatas: page.facets.map((f) => ({
        name: f.field,
        aggregations: Object.fromEntries(f.values.map((v) => [v.value, v.count])),
      })),
      aggregations: page.facets.map((f) => ({
        name: f.field,
        displayName: f.displayName,
        aggregations: Object.fromEntries(f.values.map((v) => [v.value, v.count])),
        filterValues: f.values.map((v) => ({
          value: v.value,
          ...(isUrn(v.value) ? { entity: v.value } : {}),
          facetCount: v.count,
          filtered: selected.get(f.field)?.has(v.value) === true,
        })),
      })),
      suggestions: [],
    },
  }
}

/** Values each field is filtered on (positive EQUAL/IN criteria), for `filterValues[].filtered`. */
function selectedValues(filter: NormalizedFilter): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>()
  for (const group of filter.or)
    for (const c of group) {
      if (c.negated || (c.condition !== 'EQUAL' && c.condition !== 'IN')) continue
      const set = out.get(c.field) ?? new Set<string>()
      for (const v of c.values) set.add(v)
      out.set(c.field, set)
    }
  return out
}
