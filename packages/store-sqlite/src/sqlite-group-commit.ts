import { closeSync, fsync, openSync, statSync } from 'node:fs'
import { OverloadedError, UnavailableError } from '@catalog/core'
import type { WriteBatch, WriteOutcome } from '@catalog/store'
import type Database from 'better-sqlite3'
import { WAL_CHECKPOINT_BYTES, WalCheckpointer } from './sqlite-wal-checkpointer.js'
import { SqliteWriteThread } from './sqlite-write-thread.js'
import { batchToWire, THREAD_WRITE_WEIGHT, type WireBatch, writeWeight } from './sqlite-write-wire.js'
import type { PendingWrite, SqliteWriter } from './sqlite-writer.js'

/** How {@link SqliteGroupCommit} commits and syncs (see `SqliteStoreOptions` for each). */
interface GroupCommitOptions {
  readonly file: string
  /** Whether the connection is in WAL mode. */
  readonly wal: boolean
  readonly durability?: 'full' | 'normal'
  readonly syncWal?: (fd: number, done: (err: Error | null) => void) => void
  readonly maxPendingWrites?: number
  readonly writerThread?: boolean
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
 * The store's write queue. Writes waiting for the next event-loop turn are committed together
 * (group commit, bounded in size per turn); every call is acknowledged only after the group's
 * commit (and, with `full` durability, its WAL sync, which runs on libuv's thread pool; writes
 * that come while a sync runs gather for the next commit). A large write is committed by the
 * writer thread on its own connection while this thread goes on answering; writes queued behind
 * it wait for it, so writes commit in order. The writer thread also runs the WAL checkpoints
 * ({@link WalCheckpointer}), so no commit on this thread pays for one.
 */
export class SqliteGroupCommit {
  /** The writer thread for large writes; none for `:memory:` (a connection of its own would see another database) or without WAL. */
  private writerThread?: SqliteWriteThread
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

  constructor(
    private readonly db: Database.Database,
    private readonly writer: SqliteWriter,
    options: GroupCommitOptions,
  ) {
    this.maxPending = options.maxPendingWrites ?? 10_000
    this.largeWeight = options.largeWriteWeight ?? THREAD_WRITE_WEIGHT
    const onDisk = options.wal && options.file !== ':memory:'
    if (onDisk && options.durability !== 'normal') this.walFile = `${options.file}-wal`
    if (onDisk && options.writerThread !== false) {
      this.writerThread = new SqliteWriteThread(options.file)
      this.checkpointer = this.checkpointOffLoop(this.writerThread, `${options.file}-wal`)
    }
    this.syncWal = options.syncWal ?? fsync
  }

  /** The writer thread, while there is one (none for `:memory:`, without WAL, or once closing). */
  get thread(): SqliteWriteThread | undefined {
    return this.writerThread
  }

  /** The {@link writeWeight} from which a write (or a read) goes to the writer thread. */
  get largeWriteWeight(): number {
    return this.largeWeight
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

  /** Starts the writer thread now; resolves once it is up (or failed to start). */
  warm(): Promise<void> {
    return this.writerThread?.warm() ?? Promise.resolve()
  }

  /** Queues `batch` for the next group commit; settles once it is committed (and synced). */
  write(batch: WriteBatch): Promise<WriteOutcome> {
    if (this.closed) return Promise.reject(new UnavailableError('the metadata store is closed'))
    if (this.queue.length >= this.maxPending) {
      return Promise.reject(
        new OverloadedError('the metadata store has too many writes waiting; retry shortly'),
      )
    }
    const large = this.writerThread !== undefined && (writeWeight(batch) ?? -1) >= this.largeWeight
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

  /** A write outside the queue committed on this connection (the checkpointer counts it). */
  committed(): void {
    this.checkpointer?.committed()
  }

  /**
   * Resolves when the writer thread commits nothing: a write outside the queue (tasks, restate,
   * time-series deletion) then runs at once instead of waiting on SQLite's lock on the event loop.
   * It runs in the same microtask turn, before the queue can hand the thread another write.
   */
  async idle(): Promise<void> {
    while (this.threadWrite) await this.threadWrite
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
    if (head?.large && this.writerThread) {
      this.queue.shift()
      this.writeInThread(head, this.writerThread)
      return
    }
    const items = this.takeGroup()
    if (this.queue.length > 0) {
      // The rest commits in the next turn, so one turn never holds the event loop for long.
      this.scheduleFlush()
    }
    if (items.length === 0) return
    this.commitHere(items)
  }

  /** Commits a group on this thread's connection, then acknowledges it. */
  private commitHere(items: Pending[]): void {
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
        (wire) => thread.write(wire, item.batch),
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
      if (n > 0 && (mutations > GROUP_MUTATIONS || (item.large && this.writerThread))) break
      n++
    }
    return this.queue.splice(0, n)
  }

  /**
   * Refuses new writes, commits every write already made (the writer thread's first), ends the
   * thread and waits for the syncs in flight. The caller closes the connection after.
   */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    const checkpointer = this.checkpointer
    this.checkpointer = undefined
    await checkpointer?.idle()
    await this.threadWrite
    const thread = this.writerThread
    // What is still queued commits on this connection, large writes too; closing it checkpoints.
    this.writerThread = undefined
    while (this.queue.length > 0) this.flush()
    await thread?.close()
    if (this.syncing > 0) await new Promise<void>((resolve) => (this.syncsDone = resolve))
  }

  /** Closes the WAL file the syncs used (after the connection is closed). */
  closeWal(): void {
    if (this.walFd !== undefined) closeSync(this.walFd)
  }
}
