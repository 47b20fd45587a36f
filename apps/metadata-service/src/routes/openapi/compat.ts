import { type CatalogServer, RestliErrorSchema, restliList } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  BatchV2BodySchema,
  BatchV2ResponseSchema,
  RelationshipsV1QuerySchema,
  RelationshipsV1ResponseSchema,
  TraceBodySchema,
  TraceQuerySchema,
  TraceResponseSchema,
} from '../../schemas/openapi.js'
import type { LineageService } from '../../services/lineage-service.js'
import type { OpenApiEntityService } from '../../services/openapi-entity-service.js'
import type { WriteTraceService } from '../../services/write-trace-service.js'

const errors = { 400: RestliErrorSchema, 422: RestliErrorSchema }

export interface OpenApiCompatOptions {
  readonly entities: OpenApiEntityService
  readonly lineage: LineageService
  readonly traces: WriteTraceService
}

/** The other OpenAPI routes DataHub's Python SDK calls: v2 batch get, relationships v1, write traces. */
export async function openApiCompatRoutes(
  app: CatalogServer,
  { entities, lineage, traces }: OpenApiCompatOptions,
): Promise<void> {
  app.post(
    '/openapi/v2/entity/batch/:entityName',
    {
      schema: {
        summary: 'Get a batch of entities (OpenAPI v2)',
        description: 'Latest aspects of each URN, under `aspects`; URNs with none are left out.',
        tags: ['openapi v2 entities'],
        params: Type.Object({ entityName: Type.String({ examples: ['dataset'] }) }),
        body: BatchV2BodySchema,
        response: { 200: BatchV2ResponseSchema, ...errors },
      },
    },
    async (request) => {
      const names = request.body.aspectNames ?? []
      const requests = request.body.urns.map((urn) => {
        const ref = entities.resolve(request.params.entityName, urn)
        return { urn: ref.urn, aspects: names.map((n) => entities.aspectName(ref.entity, n)) }
      })
      const found = await entities.read(requests, request.body.withSystemMetadata ?? false)
      return {
        entities: found.map(({ urn, ...aspects }) => ({
          urn,
          aspects: Object.fromEntries(
            Object.entries(aspects).map(([name, a]) => {
              const { auditStamp: _, ...rest } = a as { auditStamp?: unknown; value: Record<string, unknown> }
              return [name, rest]
            }),
          ),
        })),
      }
    },
  )

  app.get(
    '/openapi/relationships/v1',
    {
      schema: {
        summary: 'Entities related to an entity (OpenAPI relationships v1)',
        description:
          'One hop over the edges of the given relationship types: OUTGOING gives the destinations of `urn`\u2019s edges, INCOMING the sources of edges pointing at it. Ordered by type, then URN.',
        tags: ['openapi relationships'],
        querystring: RelationshipsV1QuerySchema,
        response: { 200: RelationshipsV1ResponseSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query
      const page = await lineage.relationships({
        urn: q.urn,
        direction: q.direction,
        types: restliList(request.url, 'relationshipTypes') ?? q.relationshipTypes,
        start: q.start,
        count: q.count ?? 200,
      })
      return {
        start: page.start,
        count: page.count,
        total: page.total,
        entities: page.relationships.map((r) => ({ relationshipType: r.type, urn: r.entity })),
      }
    },
  )

  app.post(
    '/openapi/v1/trace/write/:traceId',
    {
      schema: {
        summary: 'Status of a traced write',
        description:
          'Writes here are synchronous and durable, so nothing is ever PENDING: each aspect is ACTIVE_STATE when its latest row was written at or before the trace, HISTORIC_STATE when a newer write replaced it, UNKNOWN when no row is there now. Primary store and search report the same state, since a write is acknowledged after both.',
        tags: ['openapi trace'],
        params: Type.Object({
          traceId: Type.String({ description: '32 hex digits (from the traceparent header)' }),
        }),
        querystring: TraceQuerySchema,
        body: TraceBodySchema,
        response: { 200: TraceResponseSchema, ...errors },
      },
    },
    async (request) =>
      traces.status(request.params.traceId, request.body, request.query.onlyIncludeErrors ?? true),
  )
}
