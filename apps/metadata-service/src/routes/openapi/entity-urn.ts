import { InvalidInputError, ROOT_ACTOR, splitUrnPath } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema, restliError } from '@catalog/http-kit'
import type { FastifyReply } from 'fastify'
import { type Static, Type } from 'typebox'
import {
  AspectItemSchema,
  DeleteQuerySchema,
  EntityPathParamsSchema,
  EntityV3Schema,
  ReadQuerySchema,
  type WriteQuery,
  WriteQuerySchema,
} from '../../schemas/openapi.js'
import type { OpenApiEntityService, V3WriteItem } from '../../services/openapi-entity-service.js'
import { newTraceparent } from '../../services/write-trace-service.js'
import { createChangeType } from './entity-batch.js'

const PREFIX = '/openapi/v3/entity'
const PATH = `${PREFIX}/:entityName/*`
const tags = ['openapi v3 entities']
const errors = { 400: RestliErrorSchema, 404: RestliErrorSchema, 422: RestliErrorSchema }
const WHERE = 'The path tail is `{urn}` (entity) or `{urn}/{aspectName}` (one aspect).'

/** The URN (and aspect) a request's path names, checked against the path's entity type. */
function target(entities: OpenApiEntityService, request: { url: string; params: { entityName: string } }) {
  const path = request.url.split('?', 1)[0] ?? ''
  const rest = path.slice(PREFIX.length + 1)
  const tail = rest.slice(rest.indexOf('/') + 1)
  const { urn, aspect } = splitUrnPath(tail)
  const ref = entities.resolve(request.params.entityName, urn)
  return { ref, aspect: aspect === undefined ? undefined : entities.aspectName(ref.entity, aspect) }
}

function notFound(reply: FastifyReply, message: string) {
  return reply.status(404).header('Not-Found-Reason', 'ENTITY').send(restliError(404, message))
}

/** `/openapi/v3/entity/{entityName}/{urn}[/{aspectName}]`: read, exists, delete, upsert and patch one aspect. */
export async function openApiEntityUrnRoutes(
  app: CatalogServer,
  { entities }: { readonly entities: OpenApiEntityService },
): Promise<void> {
  app.get(
    PATH,
    {
      exposeHeadRoute: false,
      schema: {
        summary: 'Get an entity, or one aspect of it',
        description: `${WHERE} An entity answers GenericEntityV3 with its latest aspects (or those named by \`aspects\`); an aspect answers \`{value, systemMetadata?}\` (\`version\` picks an older one). 404 when there is nothing.`,
        tags,
        params: EntityPathParamsSchema,
        querystring: ReadQuerySchema,
        response: {
          200: Type.Union([EntityV3Schema, AspectItemSchema]),
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { ref, aspect } = target(entities, request)
      const q = request.query
      const withSm = q.systemMetadata ?? false
      if (aspect !== undefined) {
        const found = await entities.aspectVersion(ref, aspect, q.version ?? 0, withSm)
        if (!found) return notFound(reply, `No aspect ${aspect} for ${ref.urn}`)
        return found[aspect] as Static<typeof AspectItemSchema>
      }
      const names = [...(q.aspects ?? []), ...(q.aspectNames ?? [])].map((a) =>
        entities.aspectName(ref.entity, a),
      )
      const [found] = await entities.read([{ urn: ref.urn, aspects: names }], withSm)
      return found ?? notFound(reply, `No entity ${ref.urn}`)
    },
  )

  app.head(
    PATH,
    {
      schema: {
        summary: 'Whether an entity (or one aspect of it) exists',
        description: `${WHERE} 204 when it exists, 404 otherwise; a soft-deleted entity does not exist unless \`includeSoftDelete\`.`,
        tags,
        params: EntityPathParamsSchema,
        querystring: ReadQuerySchema,
      },
    },
    async (request, reply) => {
      const { ref, aspect } = target(entities, request)
      const exists = await entities.exists(ref, aspect, request.query.includeSoftDelete ?? false)
      return reply.status(exists ? 204 : 404).send()
    },
  )

  app.delete(
    PATH,
    {
      schema: {
        summary: 'Delete an entity, some of its aspects, or one aspect',
        description: `${WHERE} An entity without \`aspects\` is hard-deleted (every version, edge, time-series row and its search document), as \`/entities?action=delete\`; \`clear\` deletes every aspect but the key. One aspect: a versioned aspect through the ingest path, a time-series aspect's newest row.`,
        tags,
        params: EntityPathParamsSchema,
        querystring: DeleteQuerySchema,
        response: { 200: Type.Null({ description: 'Empty body' }), ...errors },
      },
    },
    async (request, reply) => {
      const { ref, aspect } = target(entities, request)
      const actor = request.actor ?? ROOT_ACTOR
      if (aspect !== undefined) await entities.deleteAspect(ref, aspect, actor)
      else await entities.deleteEntity(ref, request.query.aspects ?? [], request.query.clear ?? false, actor)
      return reply.header('traceparent', newTraceparent()).status(200).send(null)
    },
  )

  const writeOne = async (
    request: { url: string; params: { entityName: string }; query: WriteQuery; actor?: string | undefined },
    reply: FastifyReply,
    changeType: 'PATCH' | undefined,
    body: unknown,
  ) => {
    const { ref, aspect } = target(entities, request)
    if (aspect === undefined) throw new InvalidInputError('The path must name an aspect: {urn}/{aspectName}')
    const q = request.query
    const item = { urn: ref.urn, [aspect]: body } as V3WriteItem
    const [written] = await entities.write(
      ref.entity.name,
      [item],
      changeType ?? createChangeType(q),
      request.actor ?? ROOT_ACTOR,
      q.systemMetadata ?? false,
    )
    reply.header('traceparent', newTraceparent()).status(q.async ? 202 : 200)
    return written ?? { urn: ref.urn }
  }

  app.post(
    PATH,
    {
      schema: {
        summary: 'Create or upsert one aspect',
        description: `${WHERE} The body is \`{"value": {...}, "systemMetadata"?: {...}, "headers"?: {...}}\`; an UPSERT unless \`createIfNotExists\` (CREATE) or \`createIfEntityNotExists\` (CREATE_ENTITY).`,
        tags,
        params: EntityPathParamsSchema,
        querystring: WriteQuerySchema,
        body: AspectItemSchema,
        response: { 200: EntityV3Schema, 202: EntityV3Schema, ...errors },
      },
    },
    async (request, reply) => writeOne(request, reply, undefined, request.body),
  )

  app.patch(
    PATH,
    {
      schema: {
        summary: 'Patch one aspect (JSON Patch)',
        description: `${WHERE} The body is a JSON Patch array or \`{"patch": [...], "arrayPrimaryKeys"?: {...}}\` (content type application/json-patch+json or application/json), applied atomically as a PATCH proposal.`,
        tags,
        params: EntityPathParamsSchema,
        querystring: WriteQuerySchema,
        body: Type.Union([
          Type.Array(Type.Record(Type.String(), Type.Unknown())),
          Type.Object(
            { patch: Type.Array(Type.Record(Type.String(), Type.Unknown())) },
            { additionalProperties: true },
          ),
        ]),
        response: { 200: EntityV3Schema, 202: EntityV3Schema, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body as unknown
      const patch = Array.isArray(body) ? { patch: body } : body
      return writeOne(request, reply, 'PATCH', { value: patch })
    },
  )
}
