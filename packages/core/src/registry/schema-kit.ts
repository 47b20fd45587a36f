/**
 * Building blocks for aspect schemas. Conventions (mirroring Pegasus):
 * - a field that is `optional` or has a default in the PDL is `Type.Optional` here;
 * - a union is an object with exactly one member keyed by the member's record name
 *   (`{"com.linkedin.schema.StringType": {}}`) or primitive name (`{"string": "urn:..."}`);
 * - enums are plain strings (the values are listed in `description`), so a newer client's
 *   symbol is stored rather than refused;
 * - records whose PDL we model only in part are `open()`: unknown members are kept.
 */
import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'

/** A URN string (`urn:li:...`). */
export const UrnString = (description?: string) =>
  Type.String({ pattern: '^urn:li:', ...(description ? { description } : {}) })

/** `com.linkedin.common.AuditStamp`. */
export const AuditStamp = Type.Object({
  time: Type.Integer(),
  actor: UrnString(),
  impersonator: Type.Optional(UrnString()),
  message: Type.Optional(Type.String()),
})

/** `com.linkedin.common.TimeStamp`. */
export const TimeStamp = Type.Object({
  time: Type.Integer(),
  actor: Type.Optional(UrnString()),
})

/** `com.linkedin.common.ChangeAuditStamps`. */
export const ChangeAuditStamps = Type.Object({
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  deleted: Type.Optional(AuditStamp),
})

/** `map[string, string]` (`customProperties`). */
export const StringMap = Type.Record(Type.String(), Type.String())

/** A Pegasus union: exactly one member, keyed by record or primitive name. */
export const Union = (description?: string) =>
  Type.Record(Type.String(), Type.Unknown(), {
    minProperties: 1,
    maxProperties: 1,
    ...(description ? { description } : {}),
  })

/** An enum symbol, kept as a string; `values` documents the known symbols. */
export const Enum = (values: readonly string[]) => Type.String({ description: values.join(' | ') })

/** A record modelled in part: known members are checked, unknown ones are kept. */
export const open = <T extends TProperties>(properties: T): TObject<T> =>
  Type.Object(properties, { additionalProperties: Type.Unknown() })

/** A record whose every member is free-form (kept as given). */
export const AnyRecord = open({})

/** Marks `schema` optional (a PDL field with `optional` or a default). */
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema)

/** `com.linkedin.common.Edge` (lineage and membership edges with audit stamps). */
export const Edge = Type.Object({
  sourceUrn: Type.Optional(UrnString()),
  destinationUrn: UrnString(),
  created: Type.Optional(AuditStamp),
  lastModified: Type.Optional(AuditStamp),
  properties: Type.Optional(StringMap),
})

/** `com.linkedin.common.TimeseriesAspectBase` members, shared by every time-series aspect. */
export const TimeseriesBase = {
  timestampMillis: Type.Integer(),
  eventGranularity: Type.Optional(
    Type.Object({ unit: Type.String(), multiple: Type.Optional(Type.Integer()) }),
  ),
  partitionSpec: Type.Optional(
    Type.Object({
      partition: Type.Optional(Type.String()),
      timePartition: Type.Optional(
        Type.Object({
          startTimeMillis: Type.Integer(),
          length: Type.Object({ unit: Type.String(), multiple: Type.Optional(Type.Integer()) }),
        }),
      ),
      type: Type.Optional(Type.String()),
    }),
  ),
  messageId: Type.Optional(Type.String()),
}

/** FabricType symbols (dataset / ML key `origin`). */
export const FABRIC_TYPES = [
  'DEV',
  'TEST',
  'QA',
  'UAT',
  'EI',
  'PRE',
  'STG',
  'NON_PROD',
  'PROD',
  'CORP',
  'RVW',
  'SANDBOX',
  'PRD',
  'TST',
  'SIT',
  'SBX',
  'CERT',
] as const
