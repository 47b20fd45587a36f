import type { SearchServices } from '@catalog/search-service'
import { restCall } from './rest-call.js'

/** `POST /entities?action=searchAcrossEntities` body, as the search service takes it. */
export interface SearchAcrossBody {
  readonly input: string
  readonly entities: readonly string[]
  readonly start: number
  readonly count: number
  readonly filter?: { readonly or: readonly { readonly and: readonly Record<string, unknown>[] }[] }
  readonly sortCriteria?: readonly { readonly field: string; readonly order: 'ASCENDING' | 'DESCENDING' }[]
  readonly searchFlags?: Record<string, unknown>
}

/** One facet value as the search service counts it. */
export interface FacetValue {
  readonly value: string
  readonly facetCount: number
}

/** DataHub's `SearchResult` record, as the search service answers it. */
export interface SearchAnswer {
  readonly from: number
  readonly pageSize: number
  readonly numEntities: number
  readonly metadata: {
    readonly urns: readonly string[]
    readonly matches: readonly { readonly matchedFields: readonly { name: string; value: string }[] }[]
    readonly aggregations: readonly {
      readonly name: string
      readonly displayName: string
      readonly filterValues: readonly FacetValue[]
    }[]
  }
}

/** `POST /entities?action=autocomplete` body (one entity type). */
export interface AutocompleteBody {
  readonly entity: string
  readonly query: string
  readonly limit: number
  readonly field?: string
  readonly filter?: SearchAcrossBody['filter']
}

/** DataHub's `AutoCompleteResult` record, as the search service answers it. */
export interface AutocompleteAnswer {
  readonly query: string
  readonly suggestions: readonly string[]
  readonly entities: readonly { readonly urn: string }[]
}

/** `POST /entities?action=browse` body (one entity type). */
export interface BrowseBody {
  readonly entity: string
  /** `/a/b`; `/` or empty for the root. */
  readonly path: string
  readonly start: number
  readonly limit: number
  readonly filter?: SearchAcrossBody['filter']
}

/** DataHub's `BrowseResult` record, as the search service answers it. */
export interface BrowseAnswer {
  readonly entities: readonly { readonly urn: string }[]
  readonly groups: readonly { readonly name: string; readonly count: number }[]
  readonly metadata: { readonly path: string; readonly totalNumEntities: number }
  readonly from: number
  readonly pageSize: number
  readonly numElements: number
}

/** `POST /entities?action=browseV2` body. */
export interface BrowseV2Body {
  readonly entities: readonly string[]
  /** The browsed path's entry ids; empty for the root. */
  readonly path: readonly string[]
  readonly input: string
  readonly start: number
  readonly count: number
  readonly filter?: SearchAcrossBody['filter']
  readonly searchFlags?: Record<string, unknown>
}

/** DataHub's `BrowseResultV2` record, as the search service answers it. */
export interface BrowseV2Answer {
  readonly groups: readonly {
    readonly name: string
    readonly count: number
    readonly hasSubGroups: boolean
    readonly urn?: string
  }[]
  /** `path`: the ids joined, each after DataHub's ␟ delimiter. */
  readonly metadata: { readonly path: string; readonly totalNumEntities: number }
  readonly from: number
  readonly pageSize: number
  readonly numGroups: number
}

/** What the GraphQL search resolvers need from the search service. */
export interface SearchClient {
  searchAcrossEntities(body: SearchAcrossBody): Promise<SearchAnswer>
  autocomplete(body: AutocompleteBody): Promise<AutocompleteAnswer>
  browse(body: BrowseBody): Promise<BrowseAnswer>
  browseV2(body: BrowseV2Body): Promise<BrowseV2Answer>
}

/** {@link SearchClient} over the search services of this process. */
export class InProcessSearchClient implements SearchClient {
  constructor(private readonly services: SearchServices) {}

  searchAcrossEntities(body: SearchAcrossBody): Promise<SearchAnswer> {
    return this.services.search.searchAcrossEntities(body as never)
  }

  autocomplete(body: AutocompleteBody): Promise<AutocompleteAnswer> {
    return this.services.search.autocomplete(body as never)
  }

  browse(body: BrowseBody): Promise<BrowseAnswer> {
    return this.services.search.browse(body as never)
  }

  browseV2(body: BrowseV2Body): Promise<BrowseV2Answer> {
    return this.services.search.browseV2(body as never)
  }
}

/** {@link SearchClient} over the search service's REST endpoint (split mode), forwarding the caller's token. */
export class HttpSearchClient implements SearchClient {
  constructor(
    private readonly baseUrl: string,
    private readonly authorization?: string,
  ) {}

  async searchAcrossEntities(body: SearchAcrossBody): Promise<SearchAnswer> {
    const answer = (await restCall(this.baseUrl, 'the search service', this.authorization, {
      method: 'POST',
      path: '/entities?action=searchAcrossEntities',
      payload: body,
    })) as { value: SearchAnswer }
    return answer.value
  }

  async autocomplete(body: AutocompleteBody): Promise<AutocompleteAnswer> {
    const answer = (await restCall(this.baseUrl, 'the search service', this.authorization, {
      method: 'POST',
      path: '/entities?action=autocomplete',
      payload: body,
    })) as { value: AutocompleteAnswer }
    return answer.value
  }

  async browse(body: BrowseBody): Promise<BrowseAnswer> {
    const answer = (await restCall(this.baseUrl, 'the search service', this.authorization, {
      method: 'POST',
      path: '/entities?action=browse',
      payload: body,
    })) as { value: BrowseAnswer }
    return answer.value
  }

  async browseV2(body: BrowseV2Body): Promise<BrowseV2Answer> {
    const answer = (await restCall(this.baseUrl, 'the search service', this.authorization, {
      method: 'POST',
      path: '/entities?action=browseV2',
      payload: body,
    })) as { value: BrowseV2Answer }
    return answer.value
  }
}
