import { InvalidInputError, parseUrn } from '@catalog/core'
import { type CatalogServer, RestliErrorSchema } from '@catalog/http-kit'
import { type Static, Type } from 'typebox'
import { MAX_SCROLL_COUNT } from '../../schemas/openapi.js'
import type {
  RelationshipScrollRequest,
  RelationshipScrollService,
} from '../../services/relationship-scroll-service.js'

const List = (description: string) => Type.Optional(Type.Array(Type.String(), { description }))

/** The paging parameters every form of DataHub's relationship controller takes. */
const paging = {
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SCROLL_COUNT, default: 10 })),
  scrollId: Type.Optional(Type.String({ description: 'The scrollId of the previous page' })),
  includeSoftDelete: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Include edges whose source or destination is soft-deleted',
    }),
  ),
  sliceId: Type.Optional(Type.Integer({ description: 'This slice (0 to sliceMax - 1); with sliceMax only' })),
  sliceMax: Type.Optional(Type.Integer({ description: 'Number of slices (more than 1); with sliceId only' })),
  pitKeepAlive: Type.Optional(Type.String({ description: 'Accepted; scroll ids do not expire' })),
}
const PagingSchema = Type.Object(paging)
type Paging = Static<typeof PagingSchema>

export const RelationshipScrollQuerySchema = Type.Object({
  relationshipTypes: List('Relationship types (all when absent)'),
  sourceTypes: List('Entity types of the source'),
  destinationTypes: List('Entity types of the destination'),
  sourceUrns: List('Source URNs (any of them)'),
  destinationUrns: List('Destination URNs (any of them)'),
  ...paging,
})

const ByEntityQuerySchema = Type.Object({
  'relationshipType[]': List('Relationship types; `*` (the default) means all'),
  direction: Type.Optional(Type.String({ default: 'OUTGOING', description: 'OUTGOING or INCOMING' })),
  ...paging,
})

const NodeSchema = Type.Object({ entityType: Type.String(), urn: Type.String() })

/** `GenericScrollResult<GenericRelationship>`. */
export const RelationshipScrollResultSchema = Type.Object({
  scrollId: Type.Optional(Type.String({ description: 'Absent on the last page' })),
  results: Type.Array(
    Type.Object({ relationshipType: Type.String(), source: NodeSchema, destination: NodeSchema }),
  ),
})

const response = { 200: RelationshipScrollResultSchema, 400: RestliErrorSchema, 422: RestliErrorSchema }
const tags = ['openapi relationships']
const order =
  'Edges come by (source URN, destination URN, relationship type); `scrollId` is absent on the last page.'

function pageOf(q: Paging): Omit<RelationshipScrollRequest, 'relationshipTypes'> {
  return {
    count: q.count ?? 10,
    scrollId: q.scrollId,
    includeSoftDelete: q.includeSoftDelete ?? false,
    sliceId: q.sliceId,
    sliceMax: q.sliceMax,
  }
}

/**
 * DataHub's `GenericRelationshipController` under `/openapi/v3/relationship` and its deprecated
 * `/openapi/v2/relationship` twin: `GET /scroll` (the Python SDK's `scroll_relationships`),
 * `GET /{relationshipType}` and `GET /{entityName}/{entityUrn}`.
 */
export async function openApiRelationshipScrollRoutes(
  app: CatalogServer,
  { relationships }: { readonly relationships: RelationshipScrollService },
): Promise<void> {
  for (const prefix of ['/openapi/v3/relationship', '/openapi/v2/relationship']) {
    app.get(
      `${prefix}/scroll`,
      {
        schema: {
          summary: 'Scroll relationships with filters on source/destination types and URNs',
          description: `Every list filters when given (OR within a list, AND across them). ${order}`,
          tags,
          querystring: RelationshipScrollQuerySchema,
          response,
        },
      },
      async (request) => {
        const q = request.query
        return relationships.scroll({
          ...pageOf(q),
          relationshipTypes: q.relationshipTypes,
          sourceTypes: q.sourceTypes,
          destinationTypes: q.destinationTypes,
          sourceUrns: q.sourceUrns,
          destinationUrns: q.destinationUrns,
        })
      },
    )
    app.get(
      `${prefix}/:relationshipType`,
      {
        schema: {
          summary: 'Scroll relationships of the given type',
          description: order,
          tags,
          params: Type.Object({ relationshipType: Type.String({ examples: ['DownstreamOf'] }) }),
          querystring: PagingSchema,
          response,
        },
      },
      async (request) =>
        relationships.scroll({
          ...pageOf(request.query),
          relationshipTypes: [request.params.relationshipType],
        }),
    )
    app.get(
      `${prefix}/:entityName/:entityUrn`,
      {
        schema: {
          summary: 'Scroll relationships from a given entity',
          description: `OUTGOING: the edges whose source is the entity; INCOMING: those whose destination it is. ${order}`,
          tags,
          params: Type.Object({ entityName: Type.String(), entityUrn: Type.String() }),
          querystring: ByEntityQuerySchema,
          response,
        },
      },
      async (request) => {
        const q = request.query
        const urn = request.params.entityUrn
        parseUrn(urn)
        const direction = (q.direction ?? 'OUTGOING').toUpperCase()
        if (direction !== 'INCOMING' && direction !== 'OUTGOING')
          throw new InvalidInputError('Direction must be INCOMING or OUTGOING')
        const types = q['relationshipType[]'] ?? []
        return relationships.scroll({
          ...pageOf(q),
          relationshipTypes: types.length > 0 && types[0] !== '*' ? types : [],
          ...(direction === 'OUTGOING' ? { sourceUrns: [urn] } : { destinationUrns: [urn] }),
        })
      },
    )
  }
}
