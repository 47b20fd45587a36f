import { type Static, Type } from 'typebox'

const Enum = <T extends string>(values: readonly T[], description: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], description })

export const WINDOW_DURATIONS = ['YEAR', 'MONTH', 'WEEK', 'DAY', 'HOUR'] as const
export type WindowDuration = (typeof WINDOW_DURATIONS)[number]
const WindowDurationSchema = Enum(WINDOW_DURATIONS, '`com.linkedin.common.WindowDuration`')

export const USAGE_TIME_RANGES = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR', 'ALL'] as const
export type UsageTimeRange = (typeof USAGE_TIME_RANGES)[number]

const UserUsageCountsSchema = Type.Object({
  user: Type.Optional(Type.String({ examples: ['urn:li:corpuser:jdoe'] })),
  count: Type.Integer(),
  userEmail: Type.Optional(Type.String()),
})

const FieldUsageCountsSchema = Type.Object({ fieldName: Type.String(), count: Type.Integer() })

/** `com.linkedin.usage.UsageAggregationMetrics`. */
const UsageAggregationMetricsSchema = Type.Object({
  uniqueUserCount: Type.Optional(Type.Integer()),
  users: Type.Optional(Type.Array(UserUsageCountsSchema)),
  totalSqlQueries: Type.Optional(Type.Integer()),
  topSqlQueries: Type.Optional(Type.Array(Type.String())),
  fields: Type.Optional(Type.Array(FieldUsageCountsSchema)),
})

/** `com.linkedin.usage.UsageAggregation`: one bucket of usage of one resource. */
export const UsageAggregationSchema = Type.Object({
  bucket: Type.Integer({ description: 'Bucket start, epoch millis' }),
  duration: WindowDurationSchema,
  resource: Type.String({ examples: ['urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'] }),
  metrics: UsageAggregationMetricsSchema,
})
export type UsageAggregation = Static<typeof UsageAggregationSchema>

export const UsageBatchIngestBodySchema = Type.Object({
  buckets: Type.Array(UsageAggregationSchema, { maxItems: 10_000 }),
})

export const UsageQueryBodySchema = Type.Object({
  resource: Type.String(),
  duration: WindowDurationSchema,
  startTime: Type.Optional(Type.Integer({ description: 'inclusive, epoch millis' })),
  endTime: Type.Optional(Type.Integer({ description: 'inclusive, epoch millis' })),
  maxBuckets: Type.Optional(Type.Integer({ description: 'accepted and ignored, as DataHub does' })),
})

export const UsageQueryRangeBodySchema = Type.Object({
  resource: Type.String(),
  duration: WindowDurationSchema,
  rangeFromEnd: Enum(USAGE_TIME_RANGES, '`com.linkedin.usage.UsageTimeRange`: how far back from now'),
})

/** `com.linkedin.usage.UsageQueryResult`. */
export const UsageQueryResultSchema = Type.Object({
  buckets: Type.Array(UsageAggregationSchema),
  aggregations: Type.Object({
    uniqueUserCount: Type.Optional(Type.Integer()),
    users: Type.Optional(Type.Array(UserUsageCountsSchema)),
    totalSqlQueries: Type.Optional(Type.Integer()),
    fields: Type.Optional(Type.Array(FieldUsageCountsSchema)),
  }),
})
export type UsageQueryResult = Static<typeof UsageQueryResultSchema>

export const UsageQueryResponseSchema = Type.Object({ value: UsageQueryResultSchema })
