import { Type } from 'typebox'

const RunId = Type.String({ minLength: 1, examples: ['file-2024_01_01-00_00_00'] })

export const ListRunsBodySchema = Type.Object({
  pageOffset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, default: 100 })),
  includeSoft: Type.Optional(Type.Boolean({ default: false })),
})

export const ListRunsResponseSchema = Type.Object({
  value: Type.Array(Type.Object({ runId: Type.String(), rows: Type.Integer(), timestamp: Type.Integer() })),
})

export const DescribeRunBodySchema = Type.Object({
  runId: RunId,
  start: Type.Integer({ minimum: 0 }),
  count: Type.Integer({ minimum: 0, maximum: 10_000 }),
  includeSoft: Type.Optional(Type.Boolean({ default: false })),
  includeAspect: Type.Optional(Type.Boolean({ default: false })),
})

const AspectRowSummarySchema = Type.Object({
  runId: Type.String(),
  aspectName: Type.String(),
  urn: Type.String(),
  timestamp: Type.Integer(),
  keyAspect: Type.Boolean(),
  aspect: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
})

export const DescribeRunResponseSchema = Type.Object({ value: Type.Array(AspectRowSummarySchema) })

export const RollbackBodySchema = Type.Object({
  runId: RunId,
  dryRun: Type.Optional(Type.Boolean({ default: false })),
  hardDelete: Type.Optional(Type.Boolean({ description: 'deprecated; `safe` wins when both are given' })),
  safe: Type.Optional(Type.Boolean({ description: 'false deletes entities the run created for good' })),
})

export const RollbackResponseSchema = Type.Object({
  value: Type.Object({
    entitiesAffected: Type.Integer(),
    entitiesDeleted: Type.Integer(),
    aspectsReverted: Type.Integer(),
    aspectsAffected: Type.Integer(),
    unsafeEntitiesCount: Type.Integer(),
    unsafeEntities: Type.Array(Type.Object({ urn: Type.String() })),
    aspectRowSummaries: Type.Array(AspectRowSummarySchema),
  }),
})
