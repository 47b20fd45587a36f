import { type Static, Type } from 'typebox'

const Urn = Type.String({
  minLength: 1,
  examples: ['urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)'],
})
const Millis = Type.Integer({ minimum: 0 })

export const DeleteEntityBodySchema = Type.Object({
  urn: Urn,
  aspectName: Type.Optional(Type.String({ description: 'a time-series aspect: delete only its rows' })),
  startTimeMillis: Type.Optional(Millis),
  endTimeMillis: Type.Optional(Millis),
})
export type DeleteEntityBody = Static<typeof DeleteEntityBodySchema>

export const DeleteEntityResponseSchema = Type.Object({
  value: Type.Object({
    urn: Type.String(),
    rows: Type.Optional(Type.Integer()),
    timeseriesRows: Type.Integer(),
  }),
})

export const ExistsBodySchema = Type.Object({
  urn: Urn,
  includeSoftDelete: Type.Optional(Type.Boolean({ default: true })),
})

export const ListUrnsBodySchema = Type.Object({
  entity: Type.String({ examples: ['dataset'] }),
  start: Type.Integer({ minimum: 0 }),
  count: Type.Integer({ minimum: 0, maximum: 10_000 }),
})

export const ListUrnsResponseSchema = Type.Object({
  value: Type.Object({
    entities: Type.Array(Type.String()),
    start: Type.Integer(),
    count: Type.Integer(),
    total: Type.Integer(),
  }),
})

export const EntityCountsBodySchema = Type.Object({
  entities: Type.Array(Type.String(), { maxItems: 1000 }),
})

export const DeleteReferencesBodySchema = Type.Object({
  urn: Urn,
  dryRun: Type.Optional(Type.Boolean({ default: false })),
})

export const DeleteReferencesResponseSchema = Type.Object({
  value: Type.Object({
    total: Type.Integer(),
    relatedAspects: Type.Array(
      Type.Object({
        relationship: Type.String(),
        relationshipType: Type.String(),
        entity: Type.String(),
        aspect: Type.String(),
      }),
    ),
  }),
})

export const GetCountSchema = Type.Object({
  aspect: Type.String({ minLength: 1, examples: ['datasetProperties'] }),
  urnLike: Type.Optional(
    Type.String({ description: 'SQL LIKE pattern over URNs', examples: ['urn:li:dataset:%'] }),
  ),
})
