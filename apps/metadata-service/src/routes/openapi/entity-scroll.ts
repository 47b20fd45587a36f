import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import {
  EntityNameParamsSchema,
  type ScrollBody,
  ScrollBodySchema,
  type ScrollQuery,
  ScrollQuerySchema,
  ScrollResultSchema,
} from '../../schemas/openapi.js'
import type { OpenApiScrollService, ScrollRequest } from '../../services/openapi-scroll-service.js'

const PREFIX = '/openapi/v3/entity'
const tags = ['openapi v3 entities']
const response = { 200: ScrollResultSchema, 400: RestliErrorSchema, 422: RestliErrorSchema }
const description =
  'A plain listing of one type (`query` `*`, no filter, sorted by urn) reads the store in URN order; a query, a filter, another sort field or several types are answered by the search index (with a query and the default sort, hits come by relevance). `scrollId` is absent on the last page.'

/** The request parts shared by every scroll route: paging, query, sort parameters and flags. */
function fromQuery(q: ScrollQuery, body?: ScrollBody): Omit<ScrollRequest, 'entityNames' | 'aspects'> {
  return {
    count: q.count ?? 10,
    scrollId: q.scrollId,
    query: q.query,
    sort: {
      sort: q.sort,
      sortCriteria: q.sortCriteria,
      sortOrder: q.sortOrder,
      bodyCriteria: body?.sortCriteria,
    },
    filter: body?.filter,
    includeSoftDelete: q.includeSoftDelete ?? false,
    withSystemMetadata: q.systemMetadata ?? false,
  }
}

/** DataHub's v3 scrolls: `GET /{entityName}`, `POST /scroll` (several types) and `POST /{entityName}/scroll`. */
export async function openApiEntityScrollRoutes(
  app: CatalogServer,
  { scroll }: { readonly scroll: OpenApiScrollService },
): Promise<void> {
  app.get(
    `${PREFIX}/:entityName`,
    {
      schema: {
        summary: 'Scroll entities',
        description,
        tags,
        params: EntityNameParamsSchema,
        querystring: ScrollQuerySchema,
        response,
      },
    },
    async (request) =>
      scroll.scroll({
        ...fromQuery(request.query),
        entityNames: [request.params.entityName],
        aspects: [...(request.query.aspects ?? []), ...(request.query.aspectNames ?? [])],
      }),
  )
  app.post(
    `${PREFIX}/scroll`,
    {
      schema: {
        summary: 'Scroll entities of several types',
        description: `Body: \`entities\` (types; absent means all), \`aspects\`, \`filter\`, \`sortCriteria\`. ${description}`,
        tags,
        querystring: ScrollQuerySchema,
        body: ScrollBodySchema,
        response,
      },
    },
    async (request) =>
      scroll.scroll({
        ...fromQuery(request.query, request.body),
        entityNames: request.body.entities ?? [],
        ...(request.body.aspects ? { aspects: request.body.aspects } : {}),
      }),
  )
  app.post(
    `${PREFIX}/:entityName/scroll`,
    {
      schema: {
        summary: 'Scroll entities (body form)',
        description: `Body: \`aspects\`, \`filter\`, \`sortCriteria\`. ${description}`,
        tags,
        params: EntityNameParamsSchema,
        querystring: ScrollQuerySchema,
        body: ScrollBodySchema,
        response,
      },
    },
    async (request) =>
      scroll.scroll({
        ...fromQuery(request.query, request.body),
        entityNames: [request.params.entityName],
        ...(request.body.aspects ? { aspects: request.body.aspects } : {}),
      }),
  )
}
