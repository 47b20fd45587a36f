/** `com.linkedin.common.AuditStamp` as stored with each aspect row. */
export interface AuditStamp {
  readonly time: number
  readonly actor: string
}

/** `com.linkedin.mxe.SystemMetadata`: kept as given, with DataHub's defaults filled in. */
export type SystemMetadata = Record<string, unknown> & {
  lastObserved?: number
  runId?: string
  lastRunId?: string
}

/** An aspect row: one version of one aspect of one entity. */
export interface StoredAspect {
  readonly urn: string
  readonly aspect: string
  /** 0 is the latest; 1..N are previous values, oldest first. */
  readonly version: number
  readonly value: Record<string, unknown>
  readonly created: AuditStamp
  readonly systemMetadata?: SystemMetadata
}

/** What an aspect write did to the store. */
export type ChangeKind = 'UPSERT' | 'DELETE'

/**
 * One committed change, in commit order. The change log is written in the same transaction
 * as the aspect, so the log and the aspects never disagree; the search index and other
 * consumers apply it idempotently from their own durable cursor.
 */
export interface ChangeLogEntry {
  readonly seq: number
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly change: ChangeKind
  /** The new value (UPSERT) or undefined (DELETE). */
  readonly value?: Record<string, unknown>
  /** True when this DELETE removed the whole entity (a delete of its key aspect). */
  readonly entityDeleted?: boolean
  readonly created: AuditStamp
  readonly systemMetadata?: SystemMetadata
}

/** A relationship edge, stored with the aspect that produced it. */
export interface Edge {
  readonly source: string
  readonly type: string
  readonly destination: string
  /** The aspect of `source` whose value produced this edge. */
  readonly aspect: string
}

/** One time-series row (`datasetProfile`, `operation`, ...). */
export interface TimeseriesRow {
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly timestampMillis: number
  readonly value: Record<string, unknown>
  readonly systemMetadata?: SystemMetadata
}

/** The actor DataHub stamps on rows it synthesizes (key aspects of missing entities). */
export const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system'
/** The root user, the default actor when authentication is off. */
export const ROOT_ACTOR = 'urn:li:corpuser:datahub'
/** DataHub's default run id. */
export const NO_RUN_ID = 'no-run-id-provided'
