import { ROOT_ACTOR } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  EntityGetListSchema,
  EntityNameParamsSchema,
  EntityV3Schema,
  EntityWriteListSchema,
  type WriteQuery,
  WriteQuerySchema,
} from '../../schemas/openapi.js'
import type {
  OpenApiEntityService,
  V3ChangeType,
  V3WriteItem,
} from '../../services/openapi-entity-service.js'
import { newTraceparent } from '../../services/write-trace-service.js'

const PREFIX = '/openapi/v3/entity'
const tags = ['openapi v3 entities']
const errors = { 400: RestliErrorSchema, 422: RestliErrorSchema }
const EntityListSchema = Type.Array(EntityV3Schema)

export interface OpenApiBatchOptions {
  readonly entities: OpenApiEntityService
}

/** The change type a batch create asks for with DataHub's query flags. */
export function createChangeType(q: WriteQuery): V3ChangeType {
  if (q.createEntityIfNotExists || q.createIfEntityNotExists) return 'CREATE_ENTITY'
  return q.createIfNotExists ? 'CREATE' : 'UPSERT'
}

/** `/openapi/v3/entity/{entityName}`: batch create, batch patch, batchGet (scrolls: entity-scroll.ts). */
export async function openApiEntityBatchRoutes(
  app: CatalogServer,
  { entities }: OpenApiBatchOptions,
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
}
