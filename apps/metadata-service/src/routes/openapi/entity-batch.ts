import { InvalidInputError, ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  EntityGetListSchema,
  EntityNameParamsSchema,
  EntityV3Schema,
  EntityWriteListSchema,
  ScrollBodySchema,
  ScrollQuerySchema,
  ScrollResultSchema,
  type WriteQuery,
  WriteQuerySchema,
} from '../../schemas/openapi.js'
import type {
  OpenApiEntityService,
  V3ChangeType,
  V3WriteItem,
} from '../../services/openapi-entity-service.js'
import type { OpenApiScrollService } from '../../services/openapi-scroll-service.js'
import { newTraceparent } from '../../services/write-trace-service.js'

const PREFIX = '/openapi/v3/entity'
const tags = ['openapi v3 entities']
const errors = { 400: RestliErrorSchema, 422: RestliErrorSchema }
const EntityListSchema = Type.Array(EntityV3Schema)

export interface OpenApiBatchOptions {
  readonly entities: OpenApiEntityService
  readonly scroll: OpenApiScrollService
}

/** The change type a batch create asks for with DataHub's query flags. */
export function createChangeType(q: WriteQuery): V3ChangeType {
  if (q.createEntityIfNotExists || q.createIfEntityNotExists) return 'CREATE_ENTITY'
  return q.createIfNotExists ? 'CREATE' : 'UPSERT'
}

/** `/openapi/v3/entity/{entityName}`: batch create, batch patch, scroll, batchGet. */
export async function openApiEntityBatchRoutes(
  app: CatalogServer,
  { entities, scroll }: OpenApiBatchOptions,
): Promise<void> {
  /** A batch write: each aspect becomes a proposal of `changeType`, all in one atomic batch. */
  const writeRoute = (
    method: 'POST' | 'PATCH',
    summary: string,
    description: string,
    changeType: (q: WriteQuery) => V3ChangeType,
  ) =>
    app.route({
      method,
      url: `${PREFIX}/:entityName`,
      schema: {
        summary,
        description,
        tags,
        params: EntityNameParamsSchema,
        querystring: WriteQuerySchema,
        body: EntityWriteListSchema,
        response: { 200: EntityListSchema, 202: EntityListSchema, ...errors },
      },
      handler: async (request, reply) => {
        const q = request.query
        const written = await entities.write(
          request.params.entityName,
          request.body as V3WriteItem[],
          changeType(q),
          request.actor ?? ROOT_ACTOR,
          q.systemMetadata ?? false,
        )
        return reply
          .header('traceparent', newTraceparent())
          .status(q.async ? 202 : 200)
          .send(written)
      },
    })

  writeRoute(
    'POST',
    'Create or upsert aspects of a batch of entities',
    'Each aspect becomes a proposal for the ingest service, all in one atomic batch, exactly as `/aspects?action=ingestProposalBatch` writes it. `createIfNotExists` makes them CREATE, `createEntityIfNotExists` CREATE_ENTITY. The answer lists each entity with the aspects written, as stored; the `traceparent` header names the write for `/openapi/v1/trace/write`.',
    createChangeType,
  )
  writeRoute(
    'PATCH',
    'Patch aspects of a batch of entities',
    'Each aspect `value` is `{"patch": [JSON Patch operations], "arrayPrimaryKeys"?: {...}}`, applied as a PATCH proposal (atomic, validated after patching).',
    () => 'PATCH',
  )

  app.post(
    `${PREFIX}/:entityName/batchGet`,
    {
      schema: {
        summary: 'Get a batch of entities',
        description: 'Latest aspects of each URN; URNs with none are left out.',
        tags,
        params: EntityNameParamsSchema,
        querystring: Type.Object({ systemMetadata: Type.Optional(Type.Boolean({ default: false })) }),
        body: EntityGetListSchema,
        response: { 200: EntityListSchema, ...errors },
      },
    },
    async (request) => {
      const requests = request.body.map((item) => {
        const ref = entities.resolve(request.params.entityName, item.urn)
        const aspects = Object.keys(item)
          .filter((k) => k !== 'urn')
          .map((k) => entities.aspectName(ref.entity, k))
        return { urn: ref.urn, aspects }
      })
      return entities.read(requests, request.query.systemMetadata ?? false)
    },
  )

  const scrollSchema = {
    tags,
    params: EntityNameParamsSchema,
    querystring: ScrollQuerySchema,
    response: { 200: ScrollResultSchema, ...errors },
  }
  const description =
    'Entities of one type in URN order, answered from the store (not the search index): `query` must be `*`, sorting is by urn ascending.'
  app.get(
    `${PREFIX}/:entityName`,
    { schema: { ...scrollSchema, summary: 'Scroll entities', description } },
    async (request) =>
      scroll.scroll({
        entityName: request.params.entityName,
        count: request.query.count ?? 10,
        scrollId: request.query.scrollId,
        query: request.query.query,
        sort: request.query.sort ? [request.query.sort] : [],
        sortOrder: request.query.sortOrder,
        aspects: [...(request.query.aspects ?? []), ...(request.query.aspectNames ?? [])],
        includeSoftDelete: request.query.includeSoftDelete ?? false,
        withSystemMetadata: request.query.systemMetadata ?? false,
      }),
  )
  app.post(
    `${PREFIX}/:entityName/scroll`,
    {
      schema: {
        ...scrollSchema,
        body: ScrollBodySchema,
        summary: 'Scroll entities (body form)',
        description,
      },
    },
    async (request) => {
      if (request.body.filter !== undefined) {
        throw new InvalidInputError(
          'filter is not supported by this scroll; use POST /entities?action=search',
        )
      }
      const criteria = request.body.sortCriteria ?? []
      return scroll.scroll({
        entityName: request.params.entityName,
        count: request.query.count ?? 10,
        scrollId: request.query.scrollId,
        query: request.query.query,
        sort: [...(request.query.sort ? [request.query.sort] : []), ...criteria.map((c) => c.field)],
        sortOrder: criteria.find((c) => c.order && c.order !== 'ASCENDING')?.order ?? request.query.sortOrder,
        ...(request.body.aspects ? { aspects: request.body.aspects } : {}),
        includeSoftDelete: request.query.includeSoftDelete ?? false,
        withSystemMetadata: request.query.systemMetadata ?? false,
      })
    },
  )
}
