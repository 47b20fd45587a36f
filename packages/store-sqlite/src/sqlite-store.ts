import { closeSync, fsync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  type AuditStamp,
  type ChangeLogEntry,
  canonicalJson,
  NO_RUN_ID,
  OverloadedError,
  type StoredAspect,
  type SystemMetadata,
  type TimeseriesRow,
  UnavailableError,
  ValidationError,
} from '@catalog/core'
import type {
  AspectScan,
  DeleteAspect,
  EdgeScanPage,
  EdgeScanQuery,
  EdgeTarget,
  LineagePage,
  LineageQuery,
  MetadataStore,
  Mutation,
  MutationResult,
  NewTask,
  PatchAspect,
  RelationshipPage,
  RelationshipQuery,
  RestateItem,
  RollbackAspect,
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
  UpsertAspect,
  WriteBatch,
  WriteOutcome,
} from '@catalog/store'
import { patchToUpsert } from '@catalog/store'
import Database from 'better-sqlite3'
import { STORE_DDL } from './schema.js'
import { SqliteAdmin } from './sqlite-admin.js'
import { SqliteGraph } from './sqlite-graph.js'
import { SqliteLatestJson } from './sqlite-latest-json.js'
import { SqliteTimeseries } from './sqlite-timeseries.js'

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
  /**
   * Most write calls waiting for the next group commit; beyond it writes are refused with an
   * `OverloadedError` (HTTP 429 + Retry-After) instead of growing memory without bound.
   */
  readonly maxPendingWrites?: number
}

/**
 * Most mutations committed in one event-loop turn. Calls beyond it wait for the next turn (and
 * count towards `maxPendingWrites`), so a burst of writers cannot stall every other request.
 */
const GROUP_MUTATIONS = 1_000

interface AspectRow {
  urn: string
  aspect: string
  version: number
  metadata: string
  systemmetadata: string | null
  createdon: number
  createdby: string
}

interface Pending {
  readonly batch: WriteBatch
  readonly resolve: (outcome: WriteOutcome) => void
  readonly reject: (err: unknown) => void
  outcome?: WriteOutcome
  error?: unknown
}

/**
 * The embedded metadata store: one SQLite file in WAL mode. Aspect rows follow DataHub's
 * `metadata_aspect_v2` layout. Writes waiting for the next event-loop turn are committed
 * together (group commit, bounded in size per turn), each call in its own savepoint so one failing call never
 * affects another; every call is acknowledged only after the group's commit.
 */
export class SqliteMetadataStore implements MetadataStore {
  private readonly db: Database.Database
  private readonly stmt: ReturnType<typeof prepare>
  private readonly graph: SqliteGraph
  private readonly series: SqliteTimeseries
  private readonly admin: SqliteAdmin
  private readonly latestText: SqliteLatestJson
  private readonly applyOne: (batch: WriteBatch) => WriteOutcome
  private readonly applyGroup: (items: Pending[]) => void
  private readonly applyIsolated: (items: Pending[]) => void
  private queue: Pending[] = []
  private readonly maxPending: number
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
      this.db.exec(STORE_DDL)
    } catch (err) {
      throw new UnavailableError(
        `cannot open the metadata store at ${options.file}: ${(err as Error).message}`,
        { cause: err },
      )
    }
    if (wal && options.file !== ':memory:' && options.durability !== 'normal')
      this.walFile = `${options.file}-wal`
    this.syncWal = options.syncWal ?? fsync
    this.stmt = prepare(this.db)
    this.graph = new SqliteGraph(this.db)
    this.series = new SqliteTimeseries(this.db)
    this.admin = new SqliteAdmin(this.db)
    this.latestText = new SqliteLatestJson(this.db)
    this.applyOne = this.db.transaction((batch: WriteBatch) => this.apply(batch))
    // Fast path: the whole group in one transaction, no savepoints (they cost more than the
    // writes themselves). Any failure rolls the group back; `applyIsolated` then retries
    // each call in its own savepoint so one bad call never affects another.
    this.applyGroup = this.db.transaction((items: Pending[]) => {
      for (const item of items) item.outcome = this.apply(item.batch)
    })
    this.applyIsolated = this.db.transaction((items: Pending[]) => {
      for (const item of items) {
        try {
          item.outcome = this.applyOne(item.batch)
        } catch (err) {
          item.error = err
        }
      }
    })
  }

  write(batch: WriteBatch): Promise<WriteOutcome> {
    if (this.closed) return Promise.reject(new UnavailableError('the metadata store is closed'))
    if (this.queue.length >= this.maxPending) {
      return Promise.reject(
        new OverloadedError('the metadata store has too many writes waiting; retry shortly'),
      )
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, resolve, reject })
      if (!this.flushScheduled) {
        this.flushScheduled = true
        setImmediate(() => this.flush())
      }
    })
  }

  private flush(): void {
    this.flushScheduled = false
    const items = this.takeGroup()
    if (this.queue.length > 0) {
      // The rest commits in the next turn, so one turn never holds the event loop for long.
      this.flushScheduled = true
      setImmediate(() => this.flush())
    }
    if (items.length === 0) return
    try {
      try {
        this.applyGroup(items)
      } catch {
        for (const item of items) {
          delete item.outcome
          delete item.error
        }
        this.applyIsolated(items)
      }
    } catch (err) {
      const failure = new UnavailableError(`metadata store commit failed: ${(err as Error).message}`, {
        cause: err,
      })
      for (const item of items) item.reject(failure)
      return
    }
    this.acknowledge(items)
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
    })
  }

  /** The next group to commit: whole calls, up to {@link GROUP_MUTATIONS} mutations (at least one call). */
  private takeGroup(): Pending[] {
    let mutations = 0
    let n = 0
    while (n < this.queue.length) {
      mutations += (this.queue[n] as Pending).batch.mutations.length
      if (n > 0 && mutations > GROUP_MUTATIONS) break
      n++
    }
    return this.queue.splice(0, n)
  }

  private apply(batch: WriteBatch): WriteOutcome {
    const s = this.stmt
    const results: MutationResult[] = []
    const defaults = new Map((batch.defaults ?? []).map((d) => [d.urn, d]))
    const written = new Set(
      batch.mutations
        .filter((m) => m.kind === 'upsert' || m.kind === 'patch')
        .map((m) => `${m.urn}\u0000${m.aspect}`),
    )
    // Entities this batch creates have no rows yet: their first writes skip the lookups.
    const newEntities = new Set<string>()
    const touched = new Set<string>()
    const upsert = (m: UpsertAspect): boolean => {
      const id = `${m.urn}\u0000${m.aspect}`
      const fresh = newEntities.has(m.urn) && !touched.has(id)
      touched.add(id)
      if (m.precondition?.require === 'entity-absent' && !newEntities.has(m.urn)) {
        return refuse(m, 'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.')
      }
      return this.upsert(m, fresh)
    }
    for (const mutation of batch.mutations) {
      const d = defaults.get(mutationUrn(mutation))
      if (d && (mutation.kind === 'upsert' || mutation.kind === 'patch')) {
        defaults.delete(d.urn)
        if (!s.exists.get(d.urn, d.keyAspect)) {
          newEntities.add(d.urn)
          for (const a of d.aspects) {
            if (written.has(`${d.urn}\u0000${a.aspect}`)) continue
            upsert({
              kind: 'upsert',
              urn: d.urn,
              entityType: d.entityType,
              aspect: a.aspect,
              value: a.value,
              created: batch.created,
              edges: a.edges,
              // As DataHub: default aspects carry the system metadata (run id) of the write that created them.
              ...(mutation.systemMetadata ? { systemMetadata: mutation.systemMetadata } : {}),
            })
          }
        }
      }
      switch (mutation.kind) {
        case 'upsert':
          results.push({ urn: mutation.urn, aspect: mutation.aspect, changed: upsert(mutation) })
          break
        case 'patch':
          results.push({
            urn: mutation.urn,
            aspect: mutation.aspect,
            changed: upsert(this.patched(mutation)),
          })
          break
        case 'delete':
          touched.add(`${mutation.urn}\u0000${mutation.aspect}`)
          if (mutation.isKeyAspect) newEntities.delete(mutation.urn)
          results.push(this.delete(mutation))
          break
        case 'rollback':
          if (mutation.isKeyAspect) newEntities.delete(mutation.urn)
          results.push(this.rollback(mutation))
          break
        case 'timeseries':
          this.appendTimeseries(mutation.row)
          results.push({ urn: mutation.row.urn, aspect: mutation.row.aspect, changed: true })
          break
      }
    }
    return { results, seq: Number((s.head.get() as { seq: number | null }).seq ?? 0) }
  }

  /** The upsert a patch amounts to, computed from the latest stored value. */
  private patched(m: PatchAspect): UpsertAspect {
    const row = this.stmt.latestOne.get(m.urn, m.aspect) as AspectRow | undefined
    const current = row ? (JSON.parse(row.metadata) as Record<string, unknown>) : undefined
    return patchToUpsert(m, current)
  }

  /**
   * Writes version 0, moving a different previous value to max+1. Returns false for a no-op.
   * `fresh` means the row is known not to exist (a new entity's first write of the aspect).
   */
  private upsert(m: UpsertAspect, fresh = false): boolean {
    const s = this.stmt
    const json = canonicalJson(m.value)
    const current = fresh ? undefined : (s.latestOne.get(m.urn, m.aspect) as AspectRow | undefined)
    if (current && m.precondition?.require === 'aspect-absent') {
      return refuse(m, 'Cannot perform CREATE since the aspect already exists.')
    }
    const systemMetadata = withDefaults(m.systemMetadata, m.created, current)
    if (current && current.metadata === json) {
      s.touch.run(JSON.stringify(systemMetadata), m.urn, m.aspect)
      return false
    }
    const smJson = JSON.stringify(systemMetadata)
    if (current) {
      const max = (s.maxVersion.get(m.urn, m.aspect) as { v: number }).v
      s.archive.run(max + 1, m.urn, m.aspect)
      s.updateLatest.run(json, smJson, m.created.time, m.created.actor, m.urn, m.aspect)
    } else {
      s.insert.run(m.urn, m.aspect, 0, json, smJson, m.created.time, m.created.actor)
    }
    if (!fresh) s.deleteEdgesOf.run(m.urn, m.aspect)
    for (const e of m.edges) s.insertEdge.run(m.urn, e.type, e.destination, m.aspect)
    s.log.run(m.urn, m.entityType, m.aspect, 'UPSERT', json, 0, m.created.time, m.created.actor, smJson)
    return true
  }

  private delete(m: DeleteAspect): MutationResult {
    const s = this.stmt
    let rows: number
    if (m.isKeyAspect) {
      rows = s.deleteEntity.run(m.urn).changes
      s.deleteOutgoing.run(m.urn)
      s.deleteIncoming.run(m.urn)
      s.deleteEntityTimeseries.run(m.urn)
    } else {
      rows = s.deleteAspect.run(m.urn, m.aspect).changes
      s.deleteEdgesOf.run(m.urn, m.aspect)
    }
    if (rows > 0) {
      const deleted = m.isKeyAspect ? 1 : 0
      s.log.run(m.urn, m.entityType, m.aspect, 'DELETE', null, deleted, m.created.time, m.created.actor, null)
    }
    return { urn: m.urn, aspect: m.aspect, changed: rows > 0, rows }
  }

  /** Undoes the latest write of an aspect when `m.runId` made it (see {@link RollbackAspect}). */
  private rollback(m: RollbackAspect): MutationResult {
    const s = this.stmt
    const current = s.latestOne.get(m.urn, m.aspect) as AspectRow | undefined
    const runId = current?.systemmetadata
      ? (JSON.parse(current.systemmetadata) as SystemMetadata).runId
      : undefined
    if (!current || runId !== m.runId) return { urn: m.urn, aspect: m.aspect, changed: false, rows: 0 }
    const max = (s.maxVersion.get(m.urn, m.aspect) as { v: number }).v
    if (m.isKeyAspect || max === 0) return this.delete({ ...m, kind: 'delete' })
    s.deleteVersion.run(m.urn, m.aspect, 0)
    s.promote.run(m.urn, m.aspect, max)
    const restored = s.latestOne.get(m.urn, m.aspect) as AspectRow
    this.replaceEdges(m.urn, m.aspect, m.edgesOf(JSON.parse(restored.metadata) as Record<string, unknown>))
    s.log.run(
      m.urn,
      m.entityType,
      m.aspect,
      'UPSERT',
      restored.metadata,
      0,
      m.created.time,
      m.created.actor,
      restored.systemmetadata,
    )
    return { urn: m.urn, aspect: m.aspect, changed: true, rows: 1 }
  }

  private replaceEdges(urn: string, aspect: string, edges: readonly EdgeTarget[]): void {
    const s = this.stmt
    s.deleteEdgesOf.run(urn, aspect)
    for (const e of edges) s.insertEdge.run(urn, e.type, e.destination, aspect)
  }

  private appendTimeseries(row: TimeseriesRow): void {
    const partition = row.value.partitionSpec === undefined ? '' : canonicalJson(row.value.partitionSpec)
    const messageId = typeof row.value.messageId === 'string' ? row.value.messageId : ''
    this.stmt.upsertTimeseries.run(
      row.entityType,
      row.aspect,
      row.urn,
      row.timestampMillis,
      partition,
      messageId,
      JSON.stringify(row.value),
      row.systemMetadata ? JSON.stringify(row.systemMetadata) : null,
    )
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

  /**
   * {@link changes} as JSON text, built from the stored text without parsing it, for a search
   * index that derives on its own thread: a 16 MB aspect costs this thread a string copy only.
   */
  async changesJson(after: number, limit: number): Promise<string> {
    const rows = this.stmt.changes.all(after, limit) as ChangeRow[]
    const json = JSON.stringify
    const entries = rows.map(
      (r) =>
        `{"seq":${r.seq},"urn":${json(r.urn)},"entityType":${json(r.entity_type)},"aspect":${json(r.aspect)},"change":${json(r.change)}` +
        (r.value !== null ? `,"value":${r.value}` : '') +
        (r.entity_deleted ? ',"entityDeleted":true' : '') +
        `,"created":{"time":${r.created_on},"actor":${json(r.created_by)}}` +
        (r.system_metadata ? `,"systemMetadata":${r.system_metadata}` : '') +
        '}',
    )
    return `[${entries.join(',')}]`
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
    return this.series.truncate(index, endTimeMillis, limit)
  }

  async timeseriesSizes(): Promise<TimeseriesIndexSize[]> {
    return this.series.sizes()
  }

  async taskNodeId(): Promise<string> {
    return this.series.nodeId()
  }

  async createTask(task: NewTask): Promise<StoredTask> {
    return this.series.createTask(task)
  }

  async updateTask(nodeId: string, taskId: number, update: TaskUpdate): Promise<void> {
    if (this.closed) throw new UnavailableError('the metadata store is closed')
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
    const s = this.stmt
    this.db.transaction(() => {
      for (const item of items) {
        this.replaceEdges(item.urn, item.aspect, item.edges)
        s.log.run(
          item.urn,
          item.entityType,
          item.aspect,
          'UPSERT',
          canonicalJson(item.value),
          0,
          created.time,
          created.actor,
          null,
        )
      }
    })()
    return { seq: await this.head() }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.flush()
    if (this.syncing > 0) await new Promise<void>((resolve) => (this.syncsDone = resolve))
    this.db.close()
    if (this.walFd !== undefined) closeSync(this.walFd)
  }
}

/** A write whose precondition failed: skipped when it asked to be dropped, refused otherwise. */
function refuse(m: UpsertAspect, message: string): false {
  if (m.precondition?.drop) return false
  throw new ValidationError(`${message} (${m.urn}, ${m.aspect})`)
}

function mutationUrn(m: Mutation): string {
  return m.kind === 'timeseries' ? m.row.urn : m.urn
}

function withDefaults(
  given: SystemMetadata | undefined,
  created: AuditStamp,
  current?: AspectRow,
): SystemMetadata {
  const previous = current?.systemmetadata
    ? (JSON.parse(current.systemmetadata) as SystemMetadata)
    : undefined
  const runId = given?.runId ?? NO_RUN_ID
  return {
    ...given,
    lastObserved: given?.lastObserved ?? created.time,
    runId,
    lastRunId: given?.lastRunId ?? previous?.runId ?? NO_RUN_ID,
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

function prepare(db: Database.Database) {
  return {
    exists: db.prepare('SELECT 1 FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = 0'),
    latestOne: db.prepare('SELECT * FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = 0'),
    latestAll: db.prepare('SELECT * FROM metadata_aspect_v2 WHERE urn = ? AND version = 0'),
    versionOne: db.prepare('SELECT * FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = ?'),
    maxVersion: db.prepare(
      'SELECT COALESCE(MAX(version), 0) AS v FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ?',
    ),
    insert: db.prepare(
      'INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, systemmetadata, createdon, createdby) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    archive: db.prepare(
      `INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, systemmetadata, createdon, createdby)
       SELECT urn, aspect, ?, metadata, systemmetadata, createdon, createdby FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = 0`,
    ),
    updateLatest: db.prepare(
      'UPDATE metadata_aspect_v2 SET metadata = ?, systemmetadata = ?, createdon = ?, createdby = ? WHERE urn = ? AND aspect = ? AND version = 0',
    ),
    touch: db.prepare(
      'UPDATE metadata_aspect_v2 SET systemmetadata = ? WHERE urn = ? AND aspect = ? AND version = 0',
    ),
    deleteAspect: db.prepare('DELETE FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ?'),
    deleteEntity: db.prepare('DELETE FROM metadata_aspect_v2 WHERE urn = ?'),
    deleteEntityTimeseries: db.prepare('DELETE FROM timeseries WHERE urn = ?'),
    deleteEdgesOf: db.prepare('DELETE FROM edges WHERE source = ? AND aspect = ?'),
    deleteOutgoing: db.prepare('DELETE FROM edges WHERE source = ?'),
    deleteIncoming: db.prepare('DELETE FROM edges WHERE destination = ?'),
    deleteVersion: db.prepare('DELETE FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = ?'),
    promote: db.prepare(
      'UPDATE metadata_aspect_v2 SET version = 0 WHERE urn = ? AND aspect = ? AND version = ?',
    ),
    insertEdge: db.prepare(
      'INSERT OR IGNORE INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)',
    ),
    log: db.prepare(
      `INSERT INTO change_log (urn, entity_type, aspect, change, value, entity_deleted, created_on, created_by, system_metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    head: db.prepare('SELECT MAX(seq) AS seq FROM change_log'),
    changes: db.prepare('SELECT * FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?'),
    upsertTimeseries: db.prepare(
      `INSERT OR REPLACE INTO timeseries (entity_type, aspect, urn, timestamp_millis, partition_key, message_id, value, system_metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    scan: db.prepare(
      `SELECT * FROM metadata_aspect_v2 WHERE version = 0
         AND (@urn IS NULL OR urn = @urn) AND (@urnLike IS NULL OR urn LIKE @urnLike) AND (@aspect IS NULL OR aspect = @aspect)
       ORDER BY urn, aspect LIMIT @limit OFFSET @start`,
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
