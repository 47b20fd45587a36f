import { type CatalogServer, RestliErrorSchema, restliList, sendJsonText, UrlMemo } from '@catalog/http-kit'
import { Type } from 'typebox'
import {
  LineageBodySchema,
  LineageQuerySchema,
  LineageResponseSchema,
  RelationshipsQuerySchema,
  RelationshipsResponseSchema,
} from '../schemas/relationships.js'
import type { LineageService, RelationshipsRequest } from '../services/lineage-service.js'
import type { ReadService } from '../services/read-service.js'

const errors = { 400: RestliErrorSchema }

export interface RelationshipRoutesOptions {
  readonly lineage: LineageService
  /** With it, one-hop answers are remembered until the next write (`reads.answers`). */
  readonly reads?: ReadService
}

/** `/relationships` (one hop, DataHub's resource) and multi-hop lineage (action and GET form). */
export async function relationshipRoutes(
  app: CatalogServer,
  { lineage, reads }: RelationshipRoutesOptions,
): Promise<void> {
  const parsed = new UrlMemo<{ query: RelationshipsRequest; key: string }>()
  app.get(
    '/relationships',
    {
      schema: {
        summary: 'Entities at the other end of an entity\u2019s edges of the given relationship types',
        description:
          'Distinct (type, entity) pairs ordered by type, then entity URN. `count` is the number returned, `total` the number on all pages.',
        tags: ['relationships'],
        querystring: RelationshipsQuerySchema,
        response: { 200: RelationshipsResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      // The query and its cache key depend on the URL alone: worked out once per URL.
      const { query, key } = parsed.get(request.url, () => {
        const query = {
          urn: request.query.urn,
          direction: request.query.direction,
          types: restliList(request.url, 'types'),
          start: request.query.start,
          count: request.query.count,
        }
        return {
          query,
          key: JSON.stringify([query.urn, query.direction, query.types, query.start, query.count]),
        }
      })
      if (!reads) return lineage.relationships(query)
      // The answer as the response schema writes it (same members, same order).
      const json = await reads.answers.get(key, async () =>
        JSON.stringify(await lineage.relationships(query)),
      )
      return sendJsonText(reply, json)
    },
  )

  app.post(
    '/relationships',
    {
      constraints: { action: 'getLineage' },
      schema: {
        summary: 'Multi-hop lineage, bounded by hops, a node budget and a time budget',
        description:
          'Breadth-first over every lineage relationship of the registry (DownstreamOf, Consumes, Produces, Contains, DerivedFrom, MemberOf, TrainedBy, ...), each in its own direction. Results are ordered by degree, then URN, each with one shortest path. Soft-deleted entities are skipped unless includeSoftDeleted.',
        tags: ['relationships'],
        querystring: Type.Object({ action: Type.Literal('getLineage') }),
        body: LineageBodySchema,
        response: { 200: Type.Object({ value: LineageResponseSchema }), ...errors },
      },
    },
    // The service builds the answer with its members in the order the schema's serializer
    // writes them: JSON.stringify gives the same text in about half the time for long paths.
    async (request, reply) =>
      sendJsonText(reply, JSON.stringify({ value: await lineage.lineage(request.body) })),
  )

  app.get(
    '/lineage',
    {
      schema: {
        summary: 'Multi-hop lineage (GET form of /relationships?action=getLineage, unwrapped)',
        tags: ['relationships'],
        querystring: LineageQuerySchema,
        response: { 200: LineageResponseSchema, ...errors },
      },
    },
    async (request) => lineage.lineage(request.query),
  )
}
