import { type Static, Type } from 'typebox'

/** Largest page of `/relationships` and of lineage results. */
export const MAX_PAGE_COUNT = 10_000

const Urn = Type.String({
  minLength: 1,
  examples: ['urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'],
})
const Start = Type.Optional(
  Type.Integer({ minimum: 0, default: 0, description: 'Offset of the first result' }),
)
const Count = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE_COUNT, default: 100, description }))

export const RelationshipDirectionSchema = Type.Unsafe<'INCOMING' | 'OUTGOING' | 'UNDIRECTED'>({
  type: 'string',
  enum: ['INCOMING', 'OUTGOING', 'UNDIRECTED'],
  description:
    'OUTGOING: the destinations of the edges `urn` is the source of (OUTGOING DownstreamOf on a dataset gives its upstreams); INCOMING: the sources of the edges pointing at `urn`; UNDIRECTED: both',
})

export const RelationshipsQuerySchema = Type.Object({
  urn: Urn,
  direction: RelationshipDirectionSchema,
  types: Type.Optional(
    Type.Unknown({
      description:
        'Required. Relationship names: `OwnedBy`, `List(DownstreamOf,Consumes)`, or repeated `types=`',
    }),
  ),
  start: Start,
  count: Count(`Page size (at most ${MAX_PAGE_COUNT})`),
})

/** `EntityRelationships` as DataHub answers, plus the spec's `entities`. */
export const RelationshipsResponseSchema = Type.Object(
  {
    start: Type.Integer(),
    count: Type.Integer({ description: 'Relationships on this page' }),
    total: Type.Integer({ description: 'Relationships on all pages' }),
    relationships: Type.Array(Type.Object({ type: Type.String(), entity: Type.String() })),
    entities: Type.Array(Type.String(), { description: 'The `entity` of each relationship, in order' }),
  },
  { description: 'com.linkedin.common.EntityRelationships, with the spec\u2019s `entities` list' },
)
export type RelationshipsResponse = Static<typeof RelationshipsResponseSchema>

export const LineageDirectionSchema = Type.Unsafe<'UPSTREAM' | 'DOWNSTREAM'>({
  type: 'string',
  enum: ['UPSTREAM', 'DOWNSTREAM'],
  description: 'UPSTREAM: where the data comes from; DOWNSTREAM: what is built from it',
})

const lineageParams = {
  urn: Urn,
  direction: LineageDirectionSchema,
  maxHops: Type.Optional(
    Type.Integer({
      minimum: 1,
      default: 1,
      description:
        'Hops to follow; capped by the server (CATALOG_LINEAGE_MAX_HOPS, default 10). A cut answer says isPartial',
    }),
  ),
  start: Start,
  count: Count('Results per page'),
  includeSoftDeleted: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Return and traverse entities whose status is removed (skipped by default)',
    }),
  ),
}

/** `POST /relationships?action=getLineage` body. */
export const LineageBodySchema = Type.Object(lineageParams)
/** `GET /lineage` query. */
export const LineageQuerySchema = Type.Object(lineageParams)
export type LineageRequest = Static<typeof LineageBodySchema>

export const LineageResponseSchema = Type.Object(
  {
    urn: Type.String(),
    direction: Type.String(),
    maxHops: Type.Integer({ description: 'Hops actually followed at most (after the cap)' }),
    start: Type.Integer(),
    count: Type.Integer({ description: 'Results on this page' }),
    total: Type.Integer({ description: 'Entities found within the bounds' }),
    isPartial: Type.Boolean({
      description: 'True when maxHops, the node budget or the time budget stopped the walk with more left',
    }),
    partialReason: Type.Optional(
      Type.String({ description: 'MAX_HOPS | NODE_BUDGET | TIME_BUDGET, when isPartial' }),
    ),
    relationships: Type.Array(
      Type.Object({
        entity: Type.String(),
        type: Type.String({ description: 'Relationship of the last hop' }),
        degree: Type.Integer({ description: 'Hops from `urn` (shortest)' }),
        path: Type.Array(Type.String(), { description: 'One shortest path: urn, ..., entity' }),
      }),
      { description: 'Ordered by degree, then entity URN' },
    ),
    entities: Type.Array(Type.String(), { description: 'The `entity` of each result, in order' }),
  },
  { description: 'Multi-hop lineage from `urn`' },
)
export type LineageResponse = Static<typeof LineageResponseSchema>
