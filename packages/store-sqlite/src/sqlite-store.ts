import {
  type AuditStamp,
  type ChangeLogEntry,
  canonicalJson,
  type StoredAspect,
  type TimeseriesRow,
  UnavailableError,
} from '@catalog/core'
import type {
  AspectKey,
  AspectScan,
  EdgeScanPage,
  EdgeScanQuery,
  LineagePage,
  LineageQuery,
  MetadataStore,
  NewTask,
  RelationshipPage,
  RelationshipQuery,
  RestateItem,
  RunAspect,
  RunPageQuery,
  RunSummary,
  StoredAspectJson,
  StoredTask,
  TaskState,
  TaskUpdate,
  TimeseriesCounts,
  TimeseriesDeletion,
  TimeseriesIndex,
  TimeseriesIndexSize,
  TimeseriesQuery,
  WriteBatch,
  WriteOutcome,
} from '@catalog/store'
import type Database from 'better-sqlite3'
import { SqliteAdmin } from './sqlite-admin.js'
import { SqliteAspectReads } from './sqlite-aspect-reads.js'
import { ChangeLogJson } from './sqlite-change-log-json.js'
import { SqliteGraph } from './sqlite-graph.js'
import { SqliteGroupCommit } from './sqlite-group-commit.js'
import { SqliteLatestJson } from './sqlite-latest-json.js'
import { openStoreFile } from './sqlite-open.js'
import { SqliteTimeseries } from './sqlite-timeseries.js'
import { SqliteWriter } from './sqlite-writer.js'

export interface SqliteStoreOptions {
  /** Database file path, or `:memory:`. */
  readonly file: string
  /**
   * `full` fsyncs the WAL after every commit group before any write of the group is
   * acknowledged (survives power loss); `normal` survives a process crash (kill -9) but not an
   * OS crash. The fsync runs on libuv's thread pool, not on the event loop: other requests
   * (and the next group's commit) go on while the disk syncs. Default `full`.
   */
  readonly durability?: 'full' | 'normal'
  /** How the WAL is synced (tests pass a slow or failing one); node's `fs.fsync` by default. */
  readonly syncWal?: (fd: number, done: (err: Error | null) => void) => void
  /** Told, before a file of an older layout is migrated at open, what the migration will take. */
  readonly onMigrate?: (note: string) => void
  /**
   * Most write calls waiting for the next group commit; beyond it writes are refused with an
   * `OverloadedError` (HTTP 429 + Retry-After) instead of growing memory without bound.
   */
  readonly maxPendingWrites?: number
  /**
   * Commit large writes on a writer thread with its own connection (default true). Never for
   * `:memory:`, whose database no other connection can open: those write on the event loop.
   */
  readonly writerThread?: boolean
  /** The `writeWeight` from which a write goes to the writer thread (default `THREAD_WRITE_WEIGHT`). */
  readonly largeWriteWeight?: number
}

/**
 * The embedded metadata store: one SQLite file in WAL mode. Aspect rows follow DataHub's
 * `metadata_aspect_v2` layout, each URN, run id and actor stored once and referred to by id,
 * system metadata in columns (see `STORE_DDL`); an older file is migrated when it opens
 * ({@link openStoreFile}). Writes go through a group commit
 * ({@link SqliteGroupCommit}): each call is acknowledged only after its group's commit and, with
 * `full` durability, its WAL sync; large writes and the WAL checkpoints run on a writer thread.
 * Reads stay on this thread's connection: WAL gives them the last committed state.
 */
export class SqliteMetadataStore implements MetadataStore {
  private readonly db: Database.Database
  private readonly reads: SqliteAspectReads
  private readonly graph: SqliteGraph
  private readonly changeLogJson: ChangeLogJson
  private readonly series: SqliteTimeseries
  private readonly admin: SqliteAdmin
  private readonly latestText: SqliteLatestJson
  private readonly writer: SqliteWriter
  private readonly commits: SqliteGroupCommit
  private closed = false

  constructor(options: SqliteStoreOptions) {
    const { db, wal } = openStoreFile(options)
    this.db = db
    this.writer = new SqliteWriter(db)
    this.commits = new SqliteGroupCommit(db, this.writer, { ...options, wal })
    this.reads = new SqliteAspectReads(db)
    this.graph = new SqliteGraph(db)
    this.changeLogJson = new ChangeLogJson(db)
    this.series = new SqliteTimeseries(db)
    this.admin = new SqliteAdmin(db)
    this.latestText = new SqliteLatestJson(db)
  }

  /**
   * Starts the writer thread now (a server does, at start) rather than at the first large
   * write, which would otherwise share the CPU with the thread's start (~0.4 s). Resolves once
   * it is up (or failed to start, which the first write that needs it reports).
   */
  warmWriterThread(): Promise<void> {
    return this.commits.warm()
  }

  write(batch: WriteBatch): Promise<WriteOutcome> {
    return this.commits.write(batch)
  }

  async latest(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, StoredAspect[]>> {
    return this.reads.latest(urns, aspects)
  }

  async latestJson(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<Map<string, StoredAspectJson[]>> {
    return this.latestText.read(urns, aspects)
  }

  /**
   * Large values (from `largeWriteWeight` bytes; their size is read without their text)
   * are read by the writer thread into shared memory, when there is one; the others here.
   */
  async latestAspectUtf8(keys: readonly AspectKey[]): Promise<Array<Uint8Array | undefined>> {
    const largeWeight = this.commits.largeWriteWeight
    const thread = this.commits.thread
    const sizes = keys.map((k) => this.reads.latestSize(k))
    const large = keys.filter((_, i) => (sizes[i] ?? 0) >= largeWeight)
    const offLoop = thread && large.length > 0 ? await thread.read(large).catch(() => undefined) : undefined
    let next = 0
    return keys.map((k, i) => {
      if (sizes[i] === undefined) return undefined
      const read = offLoop && (sizes[i] ?? 0) >= largeWeight ? offLoop[next++] : undefined
      return read ?? this.reads.latestBytes(k)
    })
  }

  async version(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    return this.reads.version(urn, aspect, version)
  }

  async exists(urn: string, keyAspect: string): Promise<boolean> {
    return this.reads.exists(urn, keyAspect)
  }

  async changes(after: number, limit: number): Promise<ChangeLogEntry[]> {
    return this.reads.changes(after, limit)
  }

  /**
   * {@link changes} as JSON text, for a search index that derives on its own thread
   * ({@link ChangeLogJson}): the entries leave out `created` and `systemMetadata`, and a page
   * may end before `limit` entries (it is bounded in characters); only `[]` means none after.
   */
  async changesJson(after: number, limit: number): Promise<string> {
    return this.changeLogJson.read(after, limit)
  }

  async head(): Promise<number> {
    return this.reads.head()
  }

  async relationships(q: RelationshipQuery): Promise<RelationshipPage> {
    return this.graph.relationships(q)
  }

  lineage(q: LineageQuery): Promise<LineagePage> {
    return this.graph.lineage(q)
  }

  async scanEdges(q: EdgeScanQuery): Promise<EdgeScanPage> {
    return this.graph.scanEdges(q)
  }

  async timeseries(q: TimeseriesQuery): Promise<TimeseriesRow[]> {
    return this.series.timeseries(q)
  }

  async timeseriesCounts(index: TimeseriesIndex, endTimeMillis: number): Promise<TimeseriesCounts> {
    return this.series.counts(index, endTimeMillis)
  }

  async truncateTimeseries(index: TimeseriesIndex, endTimeMillis: number, limit: number): Promise<number> {
    if (this.closed) throw new UnavailableError('the metadata store is closed')
    await this.commits.idle()
    return this.series.truncate(index, endTimeMillis, limit)
  }

  async timeseriesSizes(): Promise<TimeseriesIndexSize[]> {
    return this.series.sizes()
  }

  async taskNodeId(): Promise<string> {
    return this.series.nodeId()
  }

  async createTask(task: NewTask): Promise<StoredTask> {
    await this.commits.idle()
    return this.series.createTask(task)
  }

  async updateTask(nodeId: string, taskId: number, update: TaskUpdate): Promise<void> {
    if (this.closed) throw new UnavailableError('the metadata store is closed')
    await this.commits.idle()
    this.series.updateTask(nodeId, taskId, update)
  }

  async task(nodeId: string, taskId: number): Promise<StoredTask | undefined> {
    return this.series.task(nodeId, taskId)
  }

  async tasksInState(state: TaskState): Promise<StoredTask[]> {
    return this.series.tasksInState(state)
  }

  async countAspects(aspect: string, urnLike?: string): Promise<number> {
    return this.admin.countAspects(aspect, urnLike)
  }

  async runs(q: RunPageQuery): Promise<RunSummary[]> {
    return this.admin.runs(q)
  }

  async runAspects(runId: string, q: RunPageQuery): Promise<RunAspect[]> {
    return this.admin.runAspects(runId, q)
  }

  async deleteTimeseries(d: TimeseriesDeletion): Promise<number> {
    if (this.closed) throw new UnavailableError('the metadata store is closed')
    await this.commits.idle()
    return this.admin.deleteTimeseries(d)
  }

  async scan(q: AspectScan): Promise<StoredAspect[]> {
    return this.reads.scan(q)
  }

  async restate(items: readonly RestateItem[], created: AuditStamp): Promise<{ seq: number }> {
    await this.commits.idle()
    this.db.transaction(() => {
      for (const item of items) {
        this.writer.replaceEdges(item.urn, item.aspect, item.edges)
        this.writer.log(item.urn, item.entityType, item.aspect, canonicalJson(item.value), created)
      }
    })()
    this.commits.committed()
    return { seq: await this.head() }
  }

  /** Commits every write already made (the writer thread's first), then ends the thread and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.commits.close()
    this.db.close()
    this.commits.closeWal()
  }
}
