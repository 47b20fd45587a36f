import { type Static, Type } from 'typebox'

export const TruncateBodySchema = Type.Object({
  entityType: Type.String({ examples: ['dataset'] }),
  aspect: Type.String({
    examples: ['datasetProfile'],
    description: 'time-series aspect name; the lower-case form of an index name is accepted too',
  }),
  endTimeMillis: Type.Integer({ description: 'rows with timestampMillis <= this are deleted' }),
  dryRun: Type.Optional(Type.Boolean({ default: true, description: 'when true nothing is deleted' })),
  batchSize: Type.Optional(Type.Integer({ default: 10_000, description: 'rows deleted per batch' })),
  timeoutSeconds: Type.Optional(
    Type.Integer({ description: 'stop the task after this long (default: never)' }),
  ),
  forceDeleteByQuery: Type.Optional(Type.Boolean()),
  forceReindex: Type.Optional(Type.Boolean()),
})
export type TruncateBody = Static<typeof TruncateBodySchema>

export const TaskStatusBodySchema = Type.Object({
  task: Type.Optional(
    Type.String({ description: '<nodeId>:<taskId>', examples: ['aB1cdEf2GHIJKLMnoPQr3S:1'] }),
  ),
  nodeId: Type.Optional(Type.String()),
  taskId: Type.Optional(Type.Integer()),
})
export type TaskStatusBody = Static<typeof TaskStatusBodySchema>

export const RestoreIndicesBodySchema = Type.Object({
  urn: Type.Optional(Type.String({ description: 'restore every aspect of this URN' })),
  aspect: Type.Optional(Type.String({ description: 'only this aspect' })),
  urnLike: Type.Optional(Type.String({ description: 'SQL LIKE pattern, e.g. urn:li:dataset:%' })),
  start: Type.Optional(Type.Integer({ default: 0, description: 'row offset in (urn, aspect) order' })),
  batchSize: Type.Optional(Type.Integer({ default: 10, description: 'rows per batch' })),
  limit: Type.Optional(
    Type.Integer({
      description: 'rows in this call; 0 = all selected rows. Default: all rows of urn, else one batch',
    }),
  ),
  gePitEpochMs: Type.Optional(Type.Integer({ description: 'only rows written at or after' })),
  lePitEpochMs: Type.Optional(Type.Integer({ description: 'only rows written at or before' })),
})
export type RestoreIndicesBody = Static<typeof RestoreIndicesBodySchema>

/** Every operation answers `{value: <string>}` (a JSON string for the task status and index sizes). */
export const OperationResultSchema = Type.Object({ value: Type.String() })
