import type { AuditStamp, ChangeLogEntry, StoredAspect, SystemMetadata, TimeseriesRow } from '@catalog/core'
import type { AdminStore } from './admin-port.js'
import type { GraphStore } from './graph-port.js'
import type { TimeseriesStore } from './timeseries-port.js'

/** An edge an aspect value produces (its source is the aspect's entity). */
export interface EdgeTarget {
  readonly type: string
  readonly destination: string
}

/** Store (or replace) the latest value of an aspect. */
export interface UpsertAspect {
  readonly kind: 'upsert'
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly value: Record<string, unknown>
  /**
   * `value` as canonical JSON text (`canonicalJson`), when the caller already has it (a large
   * aspect validated off the event loop): a store that keeps text stores it as is.
   */
  readonly valueJson?: string
  /**
   * {@link valueJson} as UTF-8 bytes (in shared memory), when the caller has them: a store may
   * take these as they are (the SQLite store's writer thread does) rather than read `valueJson`,
   * which may be decoded from them when read.
   */
  readonly valueUtf8?: Uint8Array
  readonly created: AuditStamp
  readonly systemMetadata?: SystemMetadata
  /** The edges this value produces; they replace the edges the aspect produced before. */
  readonly edges: readonly EdgeTarget[]
  /** `edges` as JSON text, when the caller already has it (as {@link valueJson}). */
  readonly edgesJson?: string
  /**
   * Write only when nothing exists yet (DataHub's CREATE, {@link CreatePrecondition}), or only
   * when the latest value is still the one a patch was applied to ({@link LatestUnchanged}).
   */
  readonly precondition?: WritePrecondition
}

/**
 * DataHub's create-if-not-exists semantics: `aspect-absent` (CREATE) refuses a write when the
 * aspect has a value; `entity-absent` (CREATE_ENTITY) refuses it when the entity existed
 * before this batch. A refused write fails its batch with a ValidationError carrying DataHub's
 * message, unless `drop` is set (DataHub's `If-None-Match: *` header): then it is skipped and
 * reported unchanged.
 */
export interface CreatePrecondition {
  readonly require: 'aspect-absent' | 'entity-absent'
  readonly drop?: boolean
}

/**
 * A patch applied outside the write transaction (a large aspect, on a worker thread) is written
 * as an upsert of its result guarded by this: the write happens only when the aspect's latest
 * stored value, at that point of the transaction, is exactly `latestUtf8` (the bytes
 * {@link AspectStore.latestAspectUtf8} read and the patch was applied to), or is absent when
 * `latestUtf8` is null. Otherwise the batch fails with a {@link LatestChangedError} and nothing of
 * it is written; the caller applies the patch again to a fresh read. The stored text is the
 * token because it is exact where version numbers are not (a rollback or a delete and re-create
 * reuses them), the store reads the latest row in the upsert anyway, and as bytes (shareable
 * between threads) it crosses to a writer thread without a copy.
 */
export interface LatestUnchanged {
  readonly require: 'latest-unchanged'
  readonly latestUtf8: Uint8Array | null
}

export type WritePrecondition = CreatePrecondition | LatestUnchanged

/** The new value of an aspect, computed from its latest value inside the write transaction. */
export interface PatchResult {
  readonly value: Record<string, unknown>
  readonly edges: readonly EdgeTarget[]
}

/**
 * Read-modify-write of one aspect, atomic with respect to every other write (PATCH proposals,
 * GraphQL mutations): the store reads the latest value, calls `apply`, and stores its result
 * as an upsert would, in the same transaction. (A large aspect's patch is applied off the event
 * loop instead and written as an upsert guarded by {@link LatestUnchanged}.)
 */
export interface PatchAspect {
  readonly kind: 'patch'
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly created: AuditStamp
  readonly systemMetadata?: SystemMetadata
  /**
   * Computes the new value from the latest one (undefined when the aspect has none). Throws a
   * domain error to refuse the write (its batch then fails). It must be synchronous-safe to
   * call more than once and must not have side effects: an adapter may retry it.
   */
  readonly apply: (current: Record<string, unknown> | undefined) => PatchResult
}

/**
 * Delete an aspect (all its versions and edges); deleting the key aspect deletes the entity:
 * every aspect row, its time-series rows and its edges in both directions (DataHub removes
 * the graph node; aspects of other entities that refer to it keep their values).
 */
export interface DeleteAspect {
  readonly kind: 'delete'
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly created: AuditStamp
  /** True when `aspect` is the entity's key aspect: the whole entity goes. */
  readonly isKeyAspect: boolean
}

/**
 * Undo the last write of an aspect when it came from `runId` (DataHub's rollback): the
 * previous version becomes the latest again (its edges from `edgesOf`), or the aspect goes
 * when it has none; with the key aspect, the whole entity goes as a key-aspect delete would.
 * Unchanged when the latest row was written by another run or there is none.
 */
export interface RollbackAspect {
  readonly kind: 'rollback'
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly runId: string
  readonly created: AuditStamp
  readonly isKeyAspect: boolean
  /** The edges a restored previous value produces. */
  readonly edgesOf: (value: Record<string, unknown>) => readonly EdgeTarget[]
}

/** Append (or replace, for the same timestamp and partition) a time-series value. */
export interface AppendTimeseries {
  readonly kind: 'timeseries'
  readonly row: TimeseriesRow
}

export type Mutation = UpsertAspect | PatchAspect | DeleteAspect | RollbackAspect | AppendTimeseries

/** Aspects DataHub writes with the first write of an entity (key aspect first). */
export interface EntityDefaults {
  readonly urn: string
  readonly entityType: string
  readonly keyAspect: string
  readonly aspects: ReadonlyArray<{
    readonly aspect: string
    readonly value: Record<string, unknown>
    readonly edges: readonly EdgeTarget[]
  }>
}

/** One call's writes, applied atomically and in order. */
export interface WriteBatch {
  readonly mutations: readonly Mutation[]
  /**
   * Per URN: default aspects written before the batch's own writes when the entity has no
   * key aspect row yet. A default aspect the batch writes itself is not written twice.
   */
  readonly defaults?: readonly EntityDefaults[]
  readonly created: AuditStamp
}

/** What one mutation did. */
export interface MutationResult {
  readonly urn: string
  readonly aspect: string
  /** False for a write equal to the stored value (no new version) or a delete of nothing. */
  readonly changed: boolean
  /** Deletes and rollbacks: how many aspect rows (every version) were removed. */
  readonly rows?: number
}

export interface WriteOutcome {
  readonly results: readonly MutationResult[]
  /** The change-log position after this batch (for read-your-writes). */
  readonly seq: number
}

/** A latest aspect row with its value and system metadata as stored JSON text. */
export interface StoredAspectJson {
  readonly aspect: string
  readonly version: number
  /** The value, as `JSON.stringify` wrote it. */
  readonly valueJson: string
  readonly created: AuditStamp
  /** The system metadata, as `JSON.stringify` wrote it; null when the row has none. */
  readonly systemMetadataJson: string | null
}

/** One aspect of one entity. */
export interface AspectKey {
  readonly urn: string
  readonly aspect: string
}

/** Selects latest aspect rows for re-indexing (`restoreIndices`). */
export interface AspectScan {
  readonly urn?: string
  /** SQL LIKE pattern over URNs (`urn:li:dataset:%`). */
  readonly urnLike?: string
  readonly aspect?: string
  /** Row offset in (urn, aspect) order. */
  readonly start: number
  readonly limit: number
}

/** A latest aspect value to announce again, with the edges it produces. */
export interface RestateItem {
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly value: Record<string, unknown>
  readonly edges: readonly EdgeTarget[]
}

/**
 * The metadata store: the source of truth for aspects, their versions, relationship edges,
 * time-series rows and the change log. Every adapter passes the contract suite in
 * `@catalog/store/contract`.
 *
 * Versioning is DataHub's: version 0 holds the latest value; a write with a different value
 * moves the previous one to `max(version) + 1`; a write equal to the stored value creates
 * no version (only the row's system metadata is refreshed).
 */
export interface AspectStore {
  /** Applies one call's writes in one transaction. Resolves once they are durable. */
  write(batch: WriteBatch): Promise<WriteOutcome>

  /** Latest (version 0) rows of the given URNs, optionally only the named aspects. */
  latest(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, StoredAspect[]>>

  /**
   * {@link latest} with values and system metadata as the JSON text the store holds (what
   * `JSON.stringify` wrote), for reads that answer them unchanged without parsing them.
   * Optional: a store without it is read through {@link latest}.
   */
  latestJson?(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, StoredAspectJson[]>>

  /**
   * The latest value of each aspect as the UTF-8 bytes of the JSON text the store holds
   * (undefined when it has none), in `keys` order: what a patch applied off the event loop starts
   * from, and the token of its {@link LatestUnchanged} write. Bytes, because a 16 MB value read as
   * a string took the event loop 30-40 ms and then a copy for each thread it went to. Optional:
   * without it every patch is applied in the write transaction.
   */
  latestAspectUtf8?(keys: readonly AspectKey[]): Promise<Array<Uint8Array | undefined>>

  /**
   * One version of one aspect: 0 is the latest, N > 0 a previous value (1 the oldest), and
   * -k the k-th newest previous value. Undefined when there is no such row.
   */
  version(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined>

  /** True when the entity's key aspect row exists. */
  exists(urn: string, keyAspect: string): Promise<boolean>

  /** Change-log entries with `seq > after`, in order, at most `limit`. */
  changes(after: number, limit: number): Promise<ChangeLogEntry[]>

  /** The newest change-log position (0 when empty). */
  head(): Promise<number>

  /** Latest rows selected for re-indexing, in (urn, aspect) order. */
  scan(query: AspectScan): Promise<StoredAspect[]>

  /**
   * Re-announces stored values (`restoreIndices`): in one transaction, replaces each item's
   * edges and appends an UPSERT change-log entry carrying its value, so every index
   * consumer re-applies it. Stored aspect rows are not touched.
   */
  restate(items: readonly RestateItem[], created: AuditStamp): Promise<{ readonly seq: number }>

  /** Releases connections and files. */
  close(): Promise<void>
}

/** The whole metadata store port: aspects and change log, graph, time series, runs and counts. */
export interface MetadataStore extends AspectStore, GraphStore, TimeseriesStore, AdminStore {}

/**
 * Whether `stored` (the latest value's text at the write, undefined when absent) is the value a
 * {@link LatestUnchanged} write was prepared from: adapters call it inside their write transaction.
 */
export function isLatestUnchanged(pre: LatestUnchanged, stored: string | undefined): boolean {
  const expected = pre.latestUtf8
  if (stored === undefined || expected === null) return stored === undefined && expected === null
  if (Buffer.byteLength(stored) !== expected.byteLength) return false
  return Buffer.from(stored).equals(expected)
}

/** The upsert a patch amounts to, given the latest value (adapters call it inside their write transaction). */
export function patchToUpsert(m: PatchAspect, current: Record<string, unknown> | undefined): UpsertAspect {
  const { value, edges } = m.apply(current)
  return {
    kind: 'upsert',
    urn: m.urn,
    entityType: m.entityType,
    aspect: m.aspect,
    value,
    edges,
    created: m.created,
    ...(m.systemMetadata ? { systemMetadata: m.systemMetadata } : {}),
  }
}
