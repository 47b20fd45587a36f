import type { CatalogServer } from '@catalog/http-kit'
import { RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import { BrowseResultV2Schema, BrowseV2BodySchema } from '../schemas/browse-v2.js'
import {
  AutocompleteBodySchema,
  AutocompleteResultSchema,
  actionResult,
  BrowseBodySchema,
  BrowseResultSchema,
  FilterBodySchema,
  ListResultSchema,
  SearchAcrossEntitiesBodySchema,
  SearchBodySchema,
  SearchResultSchema,
  type SearchResultValue,
} from '../schemas/search.js'
import { wantsSearchEntities, withSearchEntities } from '../services/datahub-search-entities.js'
import type { SearchService } from '../services/search-service.js'

const action = (name: string) => Type.Object({ action: Type.Literal(name) })
const errors = { 400: RestliErrorSchema }

/**
 * The search answer as the caller reads it: the spec's (`entities` as URNs), or DataHub's
 * `SearchEntity` records for DataHub's own Python client. That one is written with
 * `JSON.stringify` past the spec's response schema, which would drop the records' fields.
 */
function searchAnswer(
  reply: { serializer(fn: (payload: unknown) => string): unknown },
  userAgent: string | undefined,
  value: SearchResultValue,
): { value: SearchResultValue } {
  if (!wantsSearchEntities(userAgent)) return { value }
  reply.serializer((payload) => JSON.stringify(payload))
  return { value: withSearchEntities(value) as unknown as SearchResultValue }
}

/** `/entities` search actions: search, searchAcrossEntities, filter, list, autocomplete, browse, browseV2. */
export async function searchRoutes(
  app: CatalogServer,
  { search }: { readonly search: SearchService },
): Promise<void> {
  app.post(
    '/entities',
    {
      constraints: { action: 'search' },
      schema: {
        summary: 'Search one entity type: free text, field:value, filters and facets',
        description:
          'Free words match as prefixes with typo tolerance (one typo from 5 letters, two from 9) and rank by relevance with field boosts; documents matching more words come first. `field:value` matches a searchable field exactly (`tags:Legacy`, `platform:kafka`, `origin:PROD`); `*` matches everything. Soft-deleted entities are left out unless the filter names `removed`. `count` is at most 10000.',
        tags: ['search'],
        querystring: action('search'),
        body: SearchBodySchema,
        response: { 200: actionResult(SearchResultSchema), ...errors },
      },
    },
    async (request, reply) =>
      searchAnswer(reply, request.headers['user-agent'], await search.search(request.body)),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'searchAcrossEntities' },
      schema: {
        summary: 'Search several entity types at once (an empty list searches all)',
        tags: ['search'],
        querystring: action('searchAcrossEntities'),
        body: SearchAcrossEntitiesBodySchema,
        response: { 200: actionResult(SearchResultSchema), ...errors },
      },
    },
    async (request, reply) =>
      searchAnswer(reply, request.headers['user-agent'], await search.searchAcrossEntities(request.body)),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'filter' },
      schema: {
        summary: 'Entities of one type matching a filter, as a search result',
        tags: ['search'],
        querystring: action('filter'),
        body: FilterBodySchema,
        response: { 200: actionResult(SearchResultSchema), ...errors },
      },
    },
    async (request) => ({ value: await search.filter(request.body) }),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'list' },
      schema: {
        summary: 'URNs of one entity type, optionally filtered (DataHub ListResult)',
        tags: ['search'],
        querystring: action('list'),
        body: FilterBodySchema,
        response: { 200: actionResult(ListResultSchema), ...errors },
      },
    },
    async (request) => ({ value: await search.list(request.body) }),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'autocomplete' },
      schema: {
        summary: 'Suggestions completing a prefix, from the entity type’s autocomplete fields',
        description: '`suggestions[i]` is a value of the hit `entities[i]`. `limit` is at most 10000.',
        tags: ['search'],
        querystring: action('autocomplete'),
        body: AutocompleteBodySchema,
        response: { 200: actionResult(AutocompleteResultSchema), ...errors },
      },
    },
    async (request) => ({ value: await search.autocomplete(request.body) }),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'browse' },
      schema: {
        summary: 'Browse: entities at a browse path and the groups below it',
        description:
          'Entities whose browse path equals `path`, next-level groups with counts, and `metadata.totalNumEntities` (entities below the path). Groups come first in paging. `limit` is at most 10000.',
        tags: ['search'],
        querystring: action('browse'),
        body: BrowseBodySchema,
        response: { 200: actionResult(BrowseResultSchema), ...errors },
      },
    },
    async (request) => ({ value: await search.browse(request.body) }),
  )

  app.post(
    '/entities',
    {
      constraints: { action: 'browseV2' },
      schema: {
        summary: 'Browse V2: groups of browsePathsV2 paths one level below a path',
        description:
          'The entities of the types matching `input` and `filter` whose `browsePathsV2` lies strictly under `path` (a list of entry ids), grouped by their next entry with counts and `hasSubGroups`; groups by count, paged by `start`/`count`; `metadata.totalNumEntities` counts the entities under the path. What DataHub’s GraphQL `browseV2` answers from.',
        tags: ['search'],
        querystring: action('browseV2'),
        body: BrowseV2BodySchema,
        response: { 200: actionResult(BrowseResultV2Schema), ...errors },
      },
    },
    async (request) => ({ value: await search.browseV2(request.body) }),
  )
}
