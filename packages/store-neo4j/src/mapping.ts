/**
 * Conversions between the domain types of the store port and the properties of nodes as
 * Neo4j stores and returns them. The driver runs with `disableLosslessIntegers`, so stored
 * integers come back as JavaScript numbers; integers going in are wrapped with `int()` so
 * they are stored as Cypher integers (a plain number would become a float).
 */
import {
  type AuditStamp,
  type ChangeKind,
  type ChangeLogEntry,
  InvalidInputError,
  NO_RUN_ID,
  type StoredAspect,
  type SystemMetadata,
  type TimeseriesRow,
} from '@catalog/core'
import { timeseriesKey as keyOfValue } from '@catalog/store'
import neo4j, { type Integer } from 'neo4j-driver'

/** An `(:Aspect)` node's properties. */
export interface AspectNode {
  readonly urn: string
  readonly aspect: string
  readonly version: number
  readonly metadata: string
  readonly systemMetadata?: string | null
  readonly createdOn: number
  readonly createdBy: string
}

/** A `(:Change)` node's properties. */
export interface ChangeNode {
  readonly seq: number
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly change: ChangeKind
  readonly value?: string | null
  readonly entityDeleted?: boolean | null
  readonly createdOn: number
  readonly createdBy: string
  readonly systemMetadata?: string | null
}

/** A time-series row as `TIMESERIES_QUERY` and `TIMESERIES_SORTED` return it. */
export interface TimeseriesNode {
  readonly timestampMillis: number
  readonly value: string
  readonly systemMetadata?: string | null
}

/** A Cypher integer parameter (throws on a value that is not a safe integer). */
export function int(value: number): Integer {
  if (!Number.isSafeInteger(value)) throw new InvalidInputError(`${value} is not a safe integer`)
  return neo4j.int(value)
}

function parseObject<T = Record<string, unknown>>(json: string): T {
  return JSON.parse(json) as T
}

/** An aspect node as the port's {@link StoredAspect}. */
export function toStoredAspect(node: AspectNode): StoredAspect {
  return {
    urn: node.urn,
    aspect: node.aspect,
    version: node.version,
    value: parseObject(node.metadata),
    created: { time: node.createdOn, actor: node.createdBy },
    ...(node.systemMetadata ? { systemMetadata: parseObject<SystemMetadata>(node.systemMetadata) } : {}),
  }
}

/** A change node as the port's {@link ChangeLogEntry}. */
export function toChangeLogEntry(node: ChangeNode): ChangeLogEntry {
  return {
    seq: node.seq,
    urn: node.urn,
    entityType: node.entityType,
    aspect: node.aspect,
    change: node.change,
    ...(node.value ? { value: parseObject(node.value) } : {}),
    ...(node.entityDeleted ? { entityDeleted: true } : {}),
    created: { time: node.createdOn, actor: node.createdBy },
    ...(node.systemMetadata ? { systemMetadata: parseObject<SystemMetadata>(node.systemMetadata) } : {}),
  }
}

/** A time-series node of one (urn, entityType, aspect) as the port's {@link TimeseriesRow}. */
export function toTimeseriesRow(
  key: { readonly urn: string; readonly entityType: string; readonly aspect: string },
  node: TimeseriesNode,
): TimeseriesRow {
  return {
    urn: key.urn,
    entityType: key.entityType,
    aspect: key.aspect,
    timestampMillis: node.timestampMillis,
    value: parseObject(node.value),
    ...(node.systemMetadata ? { systemMetadata: parseObject<SystemMetadata>(node.systemMetadata) } : {}),
  }
}

/**
 * The key properties of a time-series row beyond (entityType, aspect, urn, timestamp): DataHub's
 * partition with its event granularity, and `messageId` (see `timeseriesKey` of the store port).
 */
export function timeseriesKey(row: TimeseriesRow): { partition: string; messageId: string } {
  const { partition, messageId } = keyOfValue(row.value)
  return { partition, messageId }
}

/**
 * System metadata as stored: the given fields, `lastObserved` defaulting to the write time,
 * `runId` to DataHub's no-run id and `lastRunId` to the previous row's run id.
 */
export function systemMetadataWithDefaults(
  given: SystemMetadata | undefined,
  created: AuditStamp,
  previousJson?: string | null,
): SystemMetadata {
  const previous = previousJson ? parseObject<SystemMetadata>(previousJson) : undefined
  return {
    ...given,
    lastObserved: given?.lastObserved ?? created.time,
    runId: given?.runId ?? NO_RUN_ID,
    lastRunId: given?.lastRunId ?? previous?.runId ?? NO_RUN_ID,
  }
}

/** The entity type named by a URN (`urn:li:<type>:...`), or null when it names none. */
export function entityTypeOf(urn: string): string | null {
  return /^urn:li:([A-Za-z][A-Za-z0-9_]*):/.exec(urn)?.[1] ?? null
}

/**
 * Translates a SQL LIKE pattern (`%` any run, `_` one character; ASCII case-insensitive as
 * SQLite's LIKE) to a Java regular expression for Cypher's `=~` (which must match the whole
 * string, as LIKE does).
 */
export function likeToRegex(like: string): string {
  let regex = '(?is)'
  for (const ch of like) {
    if (ch === '%') regex += '.*'
    else if (ch === '_') regex += '.'
    else regex += /[\\^$.|?*+()[\]{}]/.test(ch) ? `\\${ch}` : ch
  }
  return regex
}
