import { closeSync, fsync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  type AuditStamp,
  type ChangeLogEntry,
  canonicalJson,
  OverloadedError,
  type StoredAspect,
  type SystemMetadata,
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
import Database from 'better-sqlite3'
import { SqliteAdmin } from './sqlite-admin.js'
import { ChangeLogJson } from './sqlite-change-log-json.js'
import { SqliteGraph } from './sqlite-graph.js'
import { SqliteLatestJson } from './sqlite-latest-json.js'
import { openStoreSchema } from './sqlite-schema.js'
import { SqliteTimeseries } from './sqlite-timeseries.js'
import { WAL_CHECKPOINT_BYTES, WalCheckpointer } from './sqlite-wal-checkpointer.js'
import { SqliteWriteThread } from './sqlite-write-thread.js'
import { batchToWire, THREAD_WRITE_WEIGHT, type WireBatch, writeWeight } from './sqlite-write-wire.js'
import { type AspectRow, type PendingWrite, SqliteWriter } from './sqlite-writer.js'

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
  /** The {@link writeWeight} from which a write goes to the writer thread (default {@link THREAD_WRITE_WEIGHT}). */
  readonly largeWriteWeight?: number
}

/**
 * Most mutations committed in one event-loop turn. Calls beyond it wait for the next turn (and
 * count towards `maxPendingWrites`), so a burst of writers cannot stall every other request.
 */
const GROUP_MUTATIONS = 1_000

/** Calls waiting that are committed at once even while the previous commit's WAL is synced. */
const GATHER_CALLS = 256

interface Pending extends PendingWrite {
  readonly resolve: (outcome: WriteOutcome) => void
  readonly reject: (err: unknown) => void
  /** Large enough for the writer thread (see {@link THREAD_WRITE_WEIGHT}). */
  readonly large: boolean
  /** A large write's form for the writer thread, made in slices as soon as the write arrives. */
  wire?: Promise<WireBatch>
}

/**
 * The embedded metadata store: one SQLite file in WAL mode. Aspect rows follow DataHub's
 * `metadata_aspect_v2` layout, each URN stored once and referred to by id (see `STORE_DDL`); an
 * older file is migrated when it opens ({@link openStoreSchema}). Writes waiting for the next event-loop turn are committed
 * together (group commit, bounded in size per turn), each call in its own savepoint so one failing call never
 * affects another; every call is acknowledged only after the group's commit (and, with `full`
 * durability, its WAL sync; writes that come while a sync runs gather for the next commit). A
 * large write (a 20,000-field schema) is committed by the writer thread on its own connection
 * while this thread goes on answering; writes queued behind it wait for it, so writes commit in
 * order. The writer thread also runs the WAL checkpoints ({@link WalCheckpointer}), so no commit
 * on this thread pays for one. Reads stay on this thread's connection: WAL gives them the last
 * committed state.
 */
export class SqliteMetadataStore implements MetadataStore {
  private readonly db: Database.Database
  private readonly stmt: ReturnType<typeof prepare>
  private readonly graph: SqliteGraph
  private readonly changeLogJson: ChangeLogJson
  private readonly series: SqliteTimeseries
  private readonly admin: SqliteAdmin
  private readonly latestText: SqliteLatestJson
  private readonly writer: SqliteWriter
  /** The writer thread for large writes; none for `:memory:` (a connection of its own would see another database) or without WAL. */
  private thread?: SqliteWriteThread
  /** Runs the WAL's checkpoints on the writer thread, when there is one (SQLite's own run in the commit). */
  private checkpointer?: WalCheckpointer
  /** The large write the writer thread is committing, or its checkpoint; this connection writes nothing meanwhile. */
  private threadWrite?: Promise<void>
  private queue: Pending[] = []
  private readonly maxPending: number
  private readonly largeWeight: number
  private flushScheduled = false
  private closed = false
  /** With `full` durability: the WAL file, opened at the first commit, and the syncs in flight. */
  private readonly walFile?: string
  private walFd?: number
  private readonly syncWal: (fd: number, done: (err: Error | null) => void) => void
  private syncing = 0
  private syncsDone?: () => void

  constructor(options: SqliteStoreOptions) {
    this.maxPending = options.maxPendingWrites ?? 10_000
    this.largeWeight = options.largeWriteWeight ?? THREAD_WRITE_WEIGHT
    if (options.file !== ':memory:') {
      // Owner-only: a new data dir is 0700 and a new database file 0600 (SQLite gives its
      // -wal and -shm files the mode of the database file).
      mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 })
      createPrivateFile(options.file)
    }
    let wal = false
    try {
      this.db = new Database(options.file)
      const mode = this.db.pragma('journal_mode = WAL', { simple: true })
      wal = mode === 'wal'
      // WAL + NORMAL: a commit writes the WAL without syncing it; with `full` durability the
      // WAL is then fsynced off the event loop before the group is acknowledged (see `flush`).
      // Where WAL is not possible (some network filesystems), `full` syncs in the commit itself.
      this.db.pragma(`synchronous = ${wal || options.durability === 'normal' ? 'NORMAL' : 'FULL'}`)
      this.db.pragma('busy_timeout = 5000')
      this.db.pragma('cache_size = -16000')
      openStoreSchema(this.db, options.onMigrate)
    } catch (err) {
      throw new UnavailableError(
        `cannot open the metadata store at ${options.file}: ${(err as Error).message}`,
        { cause: err },
      )
    }
    if (wal && options.file !== ':memory:' && options.durability !== 'normal')
      this.walFile = `${options.file}-wal`
    if (wal && options.file !== ':memory:' && options.writerThread !== false) {
      this.thread = new SqliteWriteThread(options.file)
      this.checkpointer = this.checkpointOffLoop(this.thread, `${options.file}-wal`)
    }
    this.syncWal = options.syncWal ?? fsync
    this.stmt = prepare(this.db)
    this.graph = new SqliteGraph(this.db)
    this.changeLogJson = new ChangeLogJson(this.db)
    this.series = new SqliteTimeseries(this.db)
    this.admin = new SqliteAdmin(this.db)
    this.latestText = new SqliteLatestJson(this.db)
    this.writer = new SqliteWriter(this.db)
  }

  /**
   * Leaves the WAL's checkpoints to the writer thread once it is up (see {@link WalCheckpointer}):
   * SQLite's automatic one is turned off on this connection meanwhile, and back on should the
   * thread stop or fail. This connection writes nothing while the thread checkpoints.
   */
  private checkpointOffLoop(thread: SqliteWriteThread, walFile: string): WalCheckpointer {
    return new WalCheckpointer({
      offLoop: () => {
        const checkpoint = thread.checkpoint()
        this.threadWrite = checkpoint.then(
          () => this.threadDone(),
          () => this.threadDone(),
        )
        return checkpoint
      },
      ready: () => thread.ready,
      takeOver: () => {
        this.db.pragma('wal_autocheckpoint = 0')
        this.db.pragma(`journal_size_limit = ${WAL_CHECKPOINT_BYTES}`)
      },
      giveBack: () => {
        if (!this.closed) this.db.pragma('wal_autocheckpoint = 1000')
      },
      walBytes: () => {
        try {
          return statSync(walFile).size
        } catch {
          return 0
        }
      },
    })
  }

  /** The writer thread is done (a large write or a checkpoint): this connection writes again. */
  private threadDone(): void {
    this.threadWrite = undefined
    if (this.queue.length > 0) this.scheduleFlush()
  }

  /**
   * Starts the writer thread now (a server does, at start) rather than at the first large
   * write, which would otherwise share the CPU with the thread's start (~0.4 s). Resolves once
   * it is up (or failed to start, which the first write that needs it reports).
   */
  warmWriterThread(): Promise<void> {
    return this.thread?.warm() ?? Promise.resolve()
  }

  write(batch: WriteBatch): Promise<WriteOutcome> {
    if (this.closed) return Promise.reject(new UnavailableError('the metadata store is closed'))
    if (this.queue.length >= this.maxPending) {
      return Promise.reject(
        new OverloadedError('the metadata store has too many writes waiting; retry shortly'),
      )
    }
    const large = this.thread !== undefined && (writeWeight(batch) ?? -1) >= this.largeWeight
    return new Promise((resolve, reject) => {
      const item: Pending = { batch, resolve, reject, large }
      // Serialized for the writer thread while it waits its turn; the queue keeps its place.
      if (large) {
        item.wire = batchToWire(batch)
        // Its failure is the write's own, reported when its turn comes (see writeInThread).
        item.wire.catch(() => undefined)
      }
      this.queue.push(item)
      this.scheduleFlush()
    })
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return
    this.flushScheduled = true
    setImmediate(() => this.flush())
  }

  private flush(): void {
    this.flushScheduled = false
    // While the writer thread commits, this connection writes nothing: its answer flushes again.
    if (this.threadWrite) return
    // While a commit's WAL is being synced, writes gather for the next commit (its sync flushes
    // again), unless a full group is waiting: a commit writes each page it changed once,
    // whatever the number of writes in it, so fewer, larger commits write less.
    if (this.syncing > 0 && !this.closed && this.queue.length < GATHER_CALLS) return
    const head = this.queue[0]
    if (head?.large && this.thread) {
      this.queue.shift()
      this.writeInThread(head, this.thread)
      return
    }
    const items = this.takeGroup()
    if (this.queue.length > 0) {
      // The rest commits in the next turn, so one turn never holds the event loop for long.
      this.scheduleFlush()
    }
    if (items.length === 0) return
    try {
      this.writer.applyGroup(items)
    } catch (err) {
      const failure = new UnavailableError(`metadata store commit failed: ${(err as Error).message}`, {
        cause: err,
      })
      for (const item of items) item.reject(failure)
      return
    }
    this.checkpointer?.committed()
    this.acknowledge(items)
  }

  /** Commits a large write on the writer thread, then acknowledges it as a group of one. */
  private writeInThread(item: Pending, thread: SqliteWriteThread): void {
    this.threadWrite = (item.wire ?? batchToWire(item.batch))
      .then(
        (wire) => thread.write(wire),
        (err: unknown) => {
          // A value that has no JSON form fails its own call, as it would in a group commit.
          item.error = err
          return undefined
        },
      )
      .then(
        (outcome) => {
          item.outcome = outcome
        },
        (err: unknown) => {
          item.error = err
        },
      )
      .then(() => {
        this.threadDone()
        this.acknowledge([item])
      })
  }

  /**
   * Settles a committed group: at once without a WAL to sync, else once the WAL (holding the
   * group's commit) is on disk. A failed sync refuses the group's writes: they are stored but
   * not known to be durable, and a retry of the same write is harmless.
   */
  private acknowledge(items: Pending[]): void {
    const settle = () => {
      for (const item of items) {
        if (item.outcome) item.resolve(item.outcome)
        else item.reject(item.error)
      }
    }
    if (!this.walFile) {
      settle()
      return
    }
    try {
      this.walFd ??= openSync(this.walFile, 'r')
    } catch (err) {
      const failure = new UnavailableError(`metadata store sync failed: ${(err as Error).message}`, {
        cause: err,
      })
      for (const item of items) item.reject(failure)
      return
    }
    this.syncing++
    this.syncWal(this.walFd, (err) => {
      this.syncing--
      if (err) {
        const failure = new UnavailableError(`metadata store sync failed: ${err.message}`, { cause: err })
        for (const item of items) item.reject(failure)
      } else settle()
      if (this.syncing === 0) this.syncsDone?.()
      if (this.queue.length > 0) this.scheduleFlush()
    })
  }

  /**
   * The next group to commit: whole calls, up to {@link GROUP_MUTATIONS} mutations (at least one
   * call), ending before a large write the writer thread commits.
   */
  private takeGroup(): Pending[] {
    let mutations = 0
    let n = 0
    while (n < this.queue.length) {
      const item = this.queue[n] as Pending
      mutations += item.batch.mutations.length
      if (n > 0 && (mutations > GROUP_MUTATIONS || (item.large && this.thread))) break
      n++
    }
    return this.queue.splice(0, n)
  }

  async latest(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, StoredAspect[]>> {
    const out = new Map<string, StoredAspect[]>()
    const wanted = aspects && aspects.length > 0 ? new Set(aspects) : undefined
    for (const urn of urns) {
      const rows = this.stmt.latestAll.all(urn) as AspectRow[]
      out.set(urn, rows.filter((r) => !wanted || wanted.has(r.aspect)).map(toStored))
    }
    return out
  }

  async latestJson(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<Map<string, StoredAspectJson[]>> {
    return this.latestText.read(urns, aspects)
  }

  /**
   * Large values (from {@link THREAD_WRITE_WEIGHT} bytes; their size is read without their text)
   * are read by the writer thread into shared memory, when there is one; the others here.
   */
  async latestAspectUtf8(keys: readonly AspectKey[]): Promise<Array<Uint8Array | undefined>> {
    const sizes = keys.map((k) => this.stmt.latestSize.get(k.urn, k.aspect) as number | undefined)
    const large = keys.filter((_, i) => (sizes[i] ?? 0) >= this.largeWeight)
    const offLoop =
      this.thread && large.length > 0 ? await this.thread.read(large).catch(() => undefined) : undefined
    let next = 0
    return keys.map((k, i) => {
      if (sizes[i] === undefined) return undefined
      const read = offLoop && (sizes[i] ?? 0) >= this.largeWeight ? offLoop[next++] : undefined
      return read ?? (this.stmt.latestBytes.get(k.urn, k.aspect) as Buffer | undefined)
    })
  }

  async version(urn: string, aspect: string, version: number): Promise<StoredAspect | undefined> {
    let v = version
    if (v < 0) {
      const max = (this.stmt.maxVersion.get(urn, aspect) as { v: number }).v
      v = max + v + 1
      if (v <= 0) return undefined
    }
    const row = this.stmt.versionOne.get(urn, aspect, v) as AspectRow | undefined
    return row ? toStored(row) : undefined
  }

  async exists(urn: string, keyAspect: string): Promise<boolean> {
    return this.stmt.exists.get(urn, keyAspect) !== undefined
  }

  async changes(after: number, limit: number): Promise<ChangeLogEntry[]> {
    const rows = this.stmt.changes.all(after, limit) as ChangeRow[]
    return rows.map((r) => ({
      seq: r.seq,
      urn: r.urn,
      entityType: r.entity_type,
      aspect: r.aspect,
      change: r.change,
      ...(r.value !== null ? { value: JSON.parse(r.value) as Record<string, unknown> } : {}),
      ...(r.entity_deleted ? { entityDeleted: true } : {}),
      created: { time: r.created_on, actor: r.created_by },
      ...(r.system_metadata ? { systemMetadata: JSON.parse(r.system_metadata) as SystemMetadata } : {}),
    }))
  }

  /** {@link changes} as JSON text, for a search index that derives on its own thread ({@link ChangeLogJson}). */
  async changesJson(after: number, limit: number): Promise<string> {
    return this.changeLogJson.read(after, limit)
  }

  async head(): Promise<number> {
    return Number((this.stmt.head.get() as { seq: number | null }).seq ?? 0)
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
    await this.writerIdle()
    return this.series.truncate(index, endTimeMillis, limit)
  }

  async timeseriesSizes(): Promise<TimeseriesIndexSize[]> {
    return this.series.sizes()
  }

  async taskNodeId(): Promise<string> {
    return this.series.nodeId()
  }

  async createTask(task: NewTask): Promise<StoredTask> {
    await this.writerIdle()
    return this.series.createTask(task)
  }

  async updateTask(nodeId: string, taskId: number, update: TaskUpdate): Promise<void> {
    if (this.closed) throw new UnavailableError('the metadata store is closed')
    await this.writerIdle()
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
    await this.writerIdle()
    return this.admin.deleteTimeseries(d)
  }

  async scan(q: AspectScan): Promise<StoredAspect[]> {
    const rows = this.stmt.scan.all({
      urn: q.urn ?? null,
      urnLike: q.urnLike ?? null,
      aspect: q.aspect ?? null,
      limit: q.limit,
      start: q.start,
    }) as AspectRow[]
    return rows.map(toStored)
  }

  async restate(items: readonly RestateItem[], created: AuditStamp): Promise<{ seq: number }> {
    await this.writerIdle()
    this.db.transaction(() => {
      for (const item of items) {
        this.writer.replaceEdges(item.urn, item.aspect, item.edges)
        this.writer.log(item.urn, item.entityType, item.aspect, canonicalJson(item.value), created)
      }
    })()
    this.checkpointer?.committed()
    return { seq: await this.head() }
  }

  /**
   * Resolves when the writer thread commits nothing: a write outside the queue (tasks, restate,
   * time-series deletion) then runs at once instead of waiting on SQLite's lock on the event loop.
   * It runs in the same microtask turn, before the queue can hand the thread another write.
   */
  private async writerIdle(): Promise<void> {
    while (this.threadWrite) await this.threadWrite
  }

  /** Commits every write already made (the writer thread's first), then ends the thread and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    const checkpointer = this.checkpointer
    this.checkpointer = undefined
    await checkpointer?.idle()
    await this.threadWrite
    const thread = this.thread
    // What is still queued commits on this connection, large writes too; closing it checkpoints.
    this.thread = undefined
    while (this.queue.length > 0) this.flush()
    await thread?.close()
    if (this.syncing > 0) await new Promise<void>((resolve) => (this.syncsDone = resolve))
    this.db.close()
    if (this.walFd !== undefined) closeSync(this.walFd)
  }
}

/** A row of the change log as the `changes` statement reads it. */
interface ChangeRow {
  readonly seq: number
  readonly urn: string
  readonly entity_type: string
  readonly aspect: string
  readonly change: 'UPSERT' | 'DELETE'
  readonly value: string | null
  readonly entity_deleted: number
  readonly created_on: number
  readonly created_by: string
  readonly system_metadata: string | null
}

function toStored(r: AspectRow): StoredAspect {
  return {
    urn: r.urn,
    aspect: r.aspect,
    version: r.version,
    value: JSON.parse(r.metadata) as Record<string, unknown>,
    created: { time: r.createdon, actor: r.createdby },
    ...(r.systemmetadata ? { systemMetadata: JSON.parse(r.systemmetadata) as SystemMetadata } : {}),
  }
}

/** The columns of DataHub's `metadata_aspect_v2` row, from `urns u` and `aspect_rows a`. */
const ROW = 'u.urn AS urn, a.aspect, a.version, a.metadata, a.systemmetadata, a.createdon, a.createdby'
const JOINED = 'urns u CROSS JOIN aspect_rows a ON a.eid = u.id'

function prepare(db: Database.Database) {
  return {
    exists: db.prepare(`SELECT 1 FROM ${JOINED} WHERE u.urn = ? AND a.aspect = ? AND a.version = 0`),
    latestAll: db.prepare(`SELECT ${ROW} FROM ${JOINED} WHERE u.urn = ? AND a.version = 0`),
    // The size of the stored text without reading it.
    latestSize: db
      .prepare(
        `SELECT octet_length(a.metadata) FROM ${JOINED} WHERE u.urn = ? AND a.aspect = ? AND a.version = 0`,
      )
      .pluck(),
    // As a blob: the text's bytes copied once, where a string is decoded (30-40 ms for 16 MB).
    latestBytes: db
      .prepare(
        `SELECT CAST(a.metadata AS BLOB) FROM ${JOINED} WHERE u.urn = ? AND a.aspect = ? AND a.version = 0`,
      )
      .pluck(),
    versionOne: db.prepare(`SELECT ${ROW} FROM ${JOINED} WHERE u.urn = ? AND a.aspect = ? AND a.version = ?`),
    maxVersion: db.prepare(
      `SELECT COALESCE(MAX(a.version), 0) AS v FROM ${JOINED} WHERE u.urn = ? AND a.aspect = ?`,
    ),
    head: db.prepare('SELECT MAX(seq) AS seq FROM change_log'),
    changes: db.prepare('SELECT * FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?'),
    scan: db.prepare(
      `SELECT ${ROW} FROM ${JOINED} WHERE a.version = 0
         AND (@urn IS NULL OR u.urn = @urn) AND (@urnLike IS NULL OR u.urn LIKE @urnLike) AND (@aspect IS NULL OR a.aspect = @aspect)
       ORDER BY u.urn, a.aspect LIMIT @limit OFFSET @start`,
    ),
  }
}

/** Creates `file` empty with mode 0600 unless it exists (SQLite takes an empty file as a new database). */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
}
