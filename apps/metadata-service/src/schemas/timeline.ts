import { type Static, Type } from 'typebox'

export const TimelineQuerySchema = Type.Object({
  categories: Type.Optional(
    Type.Unknown({
      description:
        'TAG, GLOSSARY_TERM, OWNERSHIP (or OWNER), DOCUMENTATION, TECHNICAL_SCHEMA, DOMAIN, DEPRECATION, LIFECYCLE; comma-separated or repeated',
    }),
  ),
  startTime: Type.Optional(Type.Unknown({ description: 'epoch ms; -1 (default) is a week before endTime' })),
  endTime: Type.Optional(Type.Unknown({ description: 'epoch ms; 0 (default) is now' })),
  raw: Type.Optional(Type.Unknown({ description: 'true adds each transaction’s raw JSON Patch' })),
})
export type TimelineQueryInput = Static<typeof TimelineQuerySchema>

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

export const ChangeEventSchema = Type.Object({
  entityUrn: Nullable(Type.String()),
  category: Nullable(Type.String()),
  operation: Nullable(Type.String()),
  modifier: Nullable(Type.String()),
  parameters: Nullable(Type.Record(Type.String(), Type.Unknown())),
  auditStamp: Nullable(Type.Object({ time: Type.Integer(), actor: Type.String() })),
  semVerChange: Nullable(Type.String()),
  description: Nullable(Type.String()),
})

export const ChangeTransactionSchema = Type.Object({
  timestamp: Type.Integer(),
  actor: Nullable(Type.String()),
  proxy: Nullable(Type.String()),
  reporter: Nullable(Type.String()),
  semVer: Nullable(Type.String()),
  semVerChange: Type.String(),
  changeEvents: Type.Array(ChangeEventSchema),
  rawDiff: Nullable(
    Type.Array(Type.Object({ op: Type.String(), path: Type.String(), value: Type.Optional(Type.Unknown()) })),
  ),
  versionStamp: Nullable(Type.String()),
})
