import { type Static, Type } from 'typebox'

/** Largest page of the OpenAPI scroll. */
export const MAX_SCROLL_COUNT = 1_000

const Flag = (description: string, fallback = false) =>
  Type.Optional(Type.Boolean({ default: fallback, description }))

const AspectValue = Type.Record(Type.String(), Type.Unknown(), {
  description: 'The aspect as JSON (the Pegasus record), e.g. {"description": "..."} for datasetProperties',
})

/** One aspect of a v3 write body: `{value, systemMetadata?, headers?}`. */
export const AspectItemSchema = Type.Object(
  {
    value: AspectValue,
    systemMetadata: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
        description: 'com.linkedin.mxe.SystemMetadata',
      }),
    ),
    headers: Type.Optional(
      Type.Union([Type.Record(Type.String(), Type.String()), Type.Null()], {
        description: 'Proposal headers (If-None-Match, X-DataHub-Sync-Index-Update, ...)',
      }),
    ),
  },
  { additionalProperties: true, description: 'GenericAspectV3' },
)

/** `GenericEntityV3`: `{"urn": ..., "<aspectName>": {value, systemMetadata?, auditStamp?}}`. */
export const EntityV3Schema = Type.Object(
  { urn: Type.String() },
  {
    additionalProperties: Type.Object({
      value: AspectValue,
      systemMetadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      auditStamp: Type.Optional(Type.Object({ time: Type.Integer(), actor: Type.String() })),
    }),
    description: 'GenericEntityV3: the URN and one member per aspect',
    examples: [
      {
        urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)',
        status: { value: { removed: false } },
      },
    ],
  },
)
/** A GenericEntityV3 as built: the URN and one member per aspect. */
export type EntityV3 = Record<string, unknown> & { urn: string }

/** The body of a batch create or patch: a list of entities, each with a `urn` and aspects. */
export const EntityWriteListSchema = Type.Array(
  Type.Object({ urn: Type.String() }, { additionalProperties: AspectItemSchema }),
  {
    description:
      'Entities to write: `[{"urn": ..., "<aspectName>": {"value": {...}, "systemMetadata": {...}}}]`',
  },
)

/** The body of batchGet: URNs, each with the aspects wanted (empty objects; none means all). */
export const EntityGetListSchema = Type.Array(
  Type.Object({ urn: Type.String() }, { additionalProperties: Type.Record(Type.String(), Type.Unknown()) }),
  { description: '`[{"urn": ..., "<aspectName>": {}}]`; an entry without aspects asks for all of them' },
)

export const EntityNameParamsSchema = Type.Object({
  entityName: Type.String({ examples: ['dataset'] }),
})

export const EntityPathParamsSchema = Type.Object({
  entityName: Type.String({ examples: ['dataset'] }),
  '*': Type.String({
    description:
      '`{urn}` or `{urn}/{aspectName}`: the URN raw or percent-encoded (slashes allowed), then optionally an aspect name',
  }),
})

export const WriteQuerySchema = Type.Object({
  async: Flag('Accepted for DataHub clients; every write here is durable before the answer (202 when true)'),
  systemMetadata: Flag('Include systemMetadata and auditStamp in the answer'),
  createIfNotExists: Flag('CREATE: refuse (or with If-None-Match: * skip) aspects that already exist'),
  createEntityIfNotExists: Flag('CREATE_ENTITY: refuse (or skip) writes to entities that already exist'),
  createIfEntityNotExists: Flag('Same as createEntityIfNotExists (the aspect route spells it this way)'),
})
export type WriteQuery = Static<typeof WriteQuerySchema>

export const ReadQuerySchema = Type.Object({
  aspects: Type.Optional(Type.Array(Type.String(), { description: 'Aspects to return (repeatable)' })),
  aspectNames: Type.Optional(Type.Array(Type.String(), { description: 'Same as aspects' })),
  systemMetadata: Flag('Include systemMetadata and auditStamp'),
  version: Type.Optional(
    Type.Integer({ minimum: 0, default: 0, description: 'Aspect version; 0 is the latest' }),
  ),
  includeSoftDelete: Flag('HEAD: a soft-deleted entity counts as existing'),
})

export const DeleteQuerySchema = Type.Object({
  aspects: Type.Optional(Type.Array(Type.String(), { description: 'Only these aspects (repeatable)' })),
  clear: Flag('Delete every aspect but the key aspect'),
})

export const ScrollQuerySchema = Type.Object({
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_SCROLL_COUNT, default: 10 })),
  scrollId: Type.Optional(Type.String({ description: 'The scrollId of the previous page' })),
  query: Type.Optional(
    Type.String({
      default: '*',
      description: 'Search query (`*`: everything). Other than `*`, answered by the search index',
    }),
  ),
  sort: Type.Optional(
    Type.String({ default: 'urn', description: 'Deprecated: the field to sort by (see sortCriteria)' }),
  ),
  sortCriteria: Type.Optional(
    Type.Array(Type.String(), { description: 'Fields to sort by, each in sortOrder (one besides urn)' }),
  ),
  sortOrder: Type.Optional(Type.String({ default: 'ASCENDING', description: 'ASCENDING or DESCENDING' })),
  aspects: Type.Optional(Type.Array(Type.String())),
  aspectNames: Type.Optional(Type.Array(Type.String())),
  systemMetadata: Flag('Include systemMetadata and auditStamp'),
  includeSoftDelete: Flag('Include soft-deleted entities'),
  skipCache: Flag('Accepted; there is no cache to skip'),
  skipAggregation: Flag('Accepted; no aggregations are computed'),
  sliceId: Type.Optional(Type.Integer({ description: 'Accepted; scrolls are not sliced' })),
  sliceMax: Type.Optional(Type.Integer({ description: 'Accepted; scrolls are not sliced' })),
  pitKeepAlive: Type.Optional(Type.String({ description: 'Accepted; scroll ids do not expire' })),
})
export type ScrollQuery = Static<typeof ScrollQuerySchema>

const CriterionV3Schema = Type.Object(
  {
    field: Type.String(),
    value: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean()])),
    values: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number(), Type.Boolean()]))),
    condition: Type.Optional(Type.String({ description: 'EQUAL (default), CONTAIN, START_WITH, ...' })),
    negated: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
)

export const ScrollFilterSchema = Type.Object(
  {
    or: Type.Optional(Type.Array(Type.Object({ and: Type.Array(CriterionV3Schema) }))),
    criteria: Type.Optional(Type.Array(CriterionV3Schema, { description: 'Deprecated: one AND group' })),
  },
  { description: 'com.linkedin.metadata.query.filter.Filter: OR of AND groups' },
)

export const ScrollBodySchema = Type.Object(
  {
    entities: Type.Optional(
      Type.Array(Type.String(), { description: 'Entity types (POST /scroll); absent means all' }),
    ),
    aspects: Type.Optional(Type.Array(Type.String())),
    filter: Type.Optional(ScrollFilterSchema),
    sortCriteria: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), order: Type.Optional(Type.String()) }), {
        description: 'Ignored when sortCriteria is given as query parameters',
      }),
    ),
  },
  { description: 'GenericEntityAspectsBodyV3' },
)
export type ScrollBody = Static<typeof ScrollBodySchema>

export const ScrollResultSchema = Type.Object(
  {
    scrollId: Type.Optional(Type.String({ description: 'Absent on the last page' })),
    entities: Type.Array(EntityV3Schema),
    totalCount: Type.Integer({
      description: 'Matching entities (a plain listing counts soft-deleted ones too)',
    }),
  },
  { description: 'GenericEntityScrollResultV3' },
)

export const BatchV2BodySchema = Type.Object({
  urns: Type.Array(Type.String(), { minItems: 1 }),
  aspectNames: Type.Optional(Type.Array(Type.String())),
  withSystemMetadata: Type.Optional(Type.Boolean({ default: false })),
})

export const BatchV2ResponseSchema = Type.Object(
  {
    entities: Type.Array(
      Type.Object({
        urn: Type.String(),
        aspects: Type.Record(
          Type.String(),
          Type.Object({
            value: AspectValue,
            systemMetadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
          }),
        ),
      }),
    ),
  },
  { description: 'BatchGetUrnResponseV2' },
)

export const RelationshipsV1QuerySchema = Type.Object({
  urn: Type.String({ minLength: 1 }),
  direction: Type.Unsafe<'INCOMING' | 'OUTGOING'>({ type: 'string', enum: ['INCOMING', 'OUTGOING'] }),
  relationshipTypes: Type.Array(Type.String(), { description: 'Relationship names (repeatable)' }),
  start: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  count: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 200 })),
})

export const RelationshipsV1ResponseSchema = Type.Object(
  {
    start: Type.Integer(),
    count: Type.Integer({ description: 'Entities on this page' }),
    total: Type.Integer(),
    entities: Type.Array(Type.Object({ relationshipType: Type.String(), urn: Type.String() })),
  },
  { description: 'RelatedEntitiesResult' },
)

const WriteStatus = Type.Object({
  writeStatus: Type.String({
    description: 'ACTIVE_STATE | HISTORIC_STATE | UNKNOWN (DataHub TraceWriteStatus)',
  }),
  writeMessage: Type.Optional(Type.String()),
})

export const TraceQuerySchema = Type.Object({
  onlyIncludeErrors: Flag('Leave out aspects whose write succeeded', true),
  detailed: Flag('Accepted', false),
  skipCache: Flag('Accepted', false),
})

export const TraceBodySchema = Type.Record(Type.String(), Type.Array(Type.String()), {
  description: '`{"<urn>": ["<aspectName>", ...]}`',
})

export const TraceResponseSchema = Type.Record(
  Type.String(),
  Type.Record(
    Type.String(),
    Type.Object({ success: Type.Boolean(), primaryStorage: WriteStatus, searchStorage: WriteStatus }),
  ),
  { description: 'TraceStatus per URN and aspect' },
)
export type TraceResponse = Static<typeof TraceResponseSchema>
