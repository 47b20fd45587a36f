import { type Static, Type } from 'typebox'

/** The largest (and default) number of values one call returns. */
export const TIMESERIES_MAX_LIMIT = 10_000

/** `com.linkedin.metadata.query.filter.Criterion`. */
export const CriterionSchema = Type.Object(
  {
    field: Type.String({ examples: ['eventGranularity.unit'] }),
    value: Type.Optional(Type.String({ description: 'deprecated: one value; use values' })),
    values: Type.Optional(Type.Array(Type.String())),
    condition: Type.Optional(
      Type.String({
        default: 'EQUAL',
        description:
          'EQUAL | IN | GREATER_THAN | GREATER_THAN_OR_EQUAL_TO | LESS_THAN | LESS_THAN_OR_EQUAL_TO | EXISTS',
      }),
    ),
    negated: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
)
export type CriterionInput = Static<typeof CriterionSchema>

/** `com.linkedin.metadata.query.filter.Filter`: `or` of `and` groups (or legacy `criteria`). */
export const FilterSchema = Type.Object(
  {
    or: Type.Optional(Type.Array(Type.Object({ and: Type.Array(CriterionSchema) }))),
    criteria: Type.Optional(Type.Array(CriterionSchema)),
  },
  { description: 'Criteria on fields of the time-series value (dotted paths)' },
)
export type FilterInput = Static<typeof FilterSchema>

export const SortSchema = Type.Object({
  field: Type.String({ examples: ['rowCount'] }),
  order: Type.Optional(Type.Union([Type.Literal('ASCENDING'), Type.Literal('DESCENDING')])),
})

export const TimeseriesValuesBodySchema = Type.Object({
  urn: Type.String({ examples: ['urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)'] }),
  entity: Type.String({ examples: ['dataset'] }),
  aspect: Type.String({ examples: ['datasetProfile'] }),
  startTimeMillis: Type.Optional(Type.Integer({ description: 'inclusive' })),
  endTimeMillis: Type.Optional(Type.Integer({ description: 'inclusive' })),
  limit: Type.Optional(
    Type.Integer({ default: TIMESERIES_MAX_LIMIT, description: `1..${TIMESERIES_MAX_LIMIT}, echoed` }),
  ),
  latestValue: Type.Optional(
    Type.Boolean({ default: false, description: 'deprecated: only the newest value (limit 1)' }),
  ),
  filter: Type.Optional(FilterSchema),
  sort: Type.Optional(SortSchema),
})
export type TimeseriesValuesBody = Static<typeof TimeseriesValuesBodySchema>

/** `com.linkedin.metadata.aspect.EnvelopedAspect` of a time-series value. */
export const TimeseriesValueSchema = Type.Object({
  aspect: Type.Object({
    value: Type.String({ description: 'the value serialized as JSON' }),
    contentType: Type.String(),
  }),
  systemMetadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
})

export const TimeseriesValuesResponseSchema = Type.Object({
  value: Type.Object({
    entityName: Type.String(),
    aspectName: Type.String(),
    startTimeMillis: Type.Optional(Type.Integer()),
    endTimeMillis: Type.Optional(Type.Integer()),
    limit: Type.Integer(),
    values: Type.Array(TimeseriesValueSchema),
  }),
})
export type TimeseriesValuesResponse = Static<typeof TimeseriesValuesResponseSchema>['value']
