import type { DocumentDeriver, LogApplyResult, SearchIndex } from '@catalog/search'
import type { Logger } from 'pino'
import type { ChangeSource } from './change-source.js'

export interface IndexSyncOptions {
  /** Change-log entries read and applied per transaction (default 5000). */
  readonly batchSize?: number
  readonly log?: Logger
}

/**
 * An index that reads the embedded store's change log from the store's file itself, on its own
 * thread (the SQLite index's worker: `WorkerSearchIndex.applyStoreLog`). Not part of the
 * `SearchIndex` port: only an index in the store's process can, and only with that store.
 */
interface StoreLogIndex {
  applyStoreLog(storeFile: string, limit: number): Promise<LogApplyResult>
}

/** What a sync has done since it was created. */
export interface SyncStats {
  readonly cursor: number
  /** Change-log entries applied by this process. */
  readonly applied: number
  readonly lastError?: string
}

/**
 * How long a noted write waits for neighbours before the index applies them together. Each
 * apply is one transaction of the index, and its commit writes a set of pages whatever the
 * number of documents (the FTS segment and structure, the cursor, the ends of the tables,
 * ~0.5 ms of the index thread's CPU), so under a stream of writes a longer window means fewer,
 * larger commits: at 1,000-2,000 single writes/s, 10 ms gathered 10-20 writes per commit, 50 ms
 * gathers 50-100 (measured by `bench/search-live-write.ts`). Searches never wait for the
 * window: {@link IndexSync.fresh} applies the noted writes at once.
 */
export const NOTED_WRITE_DELAY_MS = 50
/** Most change-log entries read as text per page for an index that derives on its own thread. */
const TEXT_PAGE = 1000

/**
 * Keeps the search index in step with the metadata change log: reads entries after the
 * index's durable cursor, turns them into index changes and applies each batch with its
 * cursor in one transaction. Runs one drain at a time; callers wanting a position wait for it
 * (`catchUp(seq)`, the one-process read-your-writes), a poller calls it on a timer (split
 * mode). Restarting resumes from the cursor: only the log's tail is applied.
 */
export class IndexSync {
  private cursor: number | undefined
  private applied = 0
  private lastError: string | undefined
  private running: Promise<void> | undefined
  private timer: NodeJS.Timeout | undefined
  private stopped = false
  private readonly batchSize: number
  /** Highest change-log position noted as written (one-process mode). */
  private written = 0
  private drainTimer: NodeJS.Timeout | undefined

  constructor(
    private readonly index: SearchIndex,
    private readonly source: ChangeSource,
    private readonly deriver: DocumentDeriver,
    private readonly options: IndexSyncOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 5000
  }

  /**
   * Applies the log until the index has `target` (default: everything there is now); returns
   * the cursor. Errors (an unreachable metadata service, a full disk) are thrown.
   */
  async catchUp(target = Number.POSITIVE_INFINITY): Promise<number> {
    for (;;) {
      const cursor = await this.currentCursor()
      if (cursor >= target) return cursor
      if (this.running) {
        await this.running.catch(() => {})
        continue
      }
      const drain = this.drain()
      this.running = drain
      try {
        await drain
      } finally {
        if (this.running === drain) this.running = undefined
      }
      if (target === Number.POSITIVE_INFINITY) return this.currentCursor()
      if ((await this.currentCursor()) < target) return this.currentCursor()
    }
  }

  /**
   * For the metadata service's `afterWrite` in one process: records that the write at `seq`
   * is durable and indexes it shortly, in a batch with its neighbours, without making the
   * writer wait. {@link fresh} makes every search wait for the writes noted before it, so
   * a search issued after an acknowledged ingest still sees it (read-your-writes) while
   * ingest never pays for indexing one write at a time.
   */
  noteWrite(seq: number): void {
    if (seq > this.written) this.written = seq
    if (this.drainTimer || this.stopped) return
    this.drainTimer = setTimeout(() => {
      this.drainTimer = undefined
      void this.afterWrite(this.written)
    }, NOTED_WRITE_DELAY_MS)
  }

  /** Waits until every write noted by {@link noteWrite} so far is applied to the index. */
  async fresh(): Promise<void> {
    if (this.written > (this.cursor ?? 0)) await this.catchUp(this.written)
  }

  /**
   * Waits until the write at `seq` is searchable. A
   * failure is logged, not thrown: the write itself is durable and the next call or poll
   * applies it.
   */
  async afterWrite(seq: number): Promise<void> {
    try {
      await this.catchUp(seq)
    } catch (err) {
      this.options.log?.error(
        { err, seq },
        'search index update failed; it is retried on the next write or poll',
      )
    }
  }

  /** Polls the log every `intervalMs` until {@link stop}. */
  start(intervalMs: number): void {
    this.stopped = false
    const tick = async () => {
      if (this.stopped) return
      try {
        await this.catchUp()
        if (this.lastError) {
          this.options.log?.info({ cursor: this.cursor }, 'search index sync resumed')
          this.lastError = undefined
        }
      } catch (err) {
        const message = (err as Error).message
        if (message !== this.lastError) this.options.log?.warn({ err }, 'search index sync failed; retrying')
        this.lastError = message
      }
      if (!this.stopped) this.timer = setTimeout(tick, intervalMs)
    }
    this.timer = setTimeout(tick, 0)
  }

  /**
   * Stops polling and waits for a drain in progress to finish its page: a backlog is not drained
   * first (after the ingest benchmark's 1,000,000 aspects it took longer than the shutdown's
   * deadline), since the index's durable cursor lets the next start apply the rest.
   */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    if (this.drainTimer) clearTimeout(this.drainTimer)
    await this.running?.catch(() => {})
  }

  async stats(): Promise<SyncStats> {
    return {
      cursor: await this.currentCursor(),
      applied: this.applied,
      ...(this.lastError ? { lastError: this.lastError } : {}),
    }
  }

  private async currentCursor(): Promise<number> {
    if (this.cursor === undefined) this.cursor = await this.index.cursor()
    return this.cursor
  }

  private async drain(): Promise<void> {
    const fromStore = (this.index as Partial<StoreLogIndex>).applyStoreLog
    if (this.source.storeFile && fromStore)
      return this.drainFromStore(fromStore.bind(this.index), this.source.storeFile)
    if (this.index.applyLog) return this.drainAsText(this.index.applyLog.bind(this.index))
    let cursor = await this.currentCursor()
    for (;;) {
      const page = await this.source.changes(cursor, this.batchSize)
      const last = page.entries.at(-1)
      if (!last) return
      const result = await this.index.apply(this.deriver.changes(page.entries), last.seq)
      this.applied += page.entries.length
      cursor = result.cursor
      this.cursor = cursor
      if (page.entries.length < this.batchSize || this.stopped) return
    }
  }

  /**
   * The drain for an index that reads the store's file itself: each call applies the next page
   * after the index's cursor; nothing of the page is read, built or copied on this thread.
   */
  private async drainFromStore(
    applyStoreLog: StoreLogIndex['applyStoreLog'],
    storeFile: string,
  ): Promise<void> {
    // Pages of TEXT_PAGE entries, as below: a call of 5,000 would keep a search queued behind it
    // on the index's thread for longer, and the index's thread holds the whole page at once.
    const pageSize = Math.min(this.batchSize, TEXT_PAGE)
    for (;;) {
      const result = await applyStoreLog(storeFile, pageSize)
      if (result.entries === 0) return
      this.applied += result.entries
      this.cursor = result.cursor
      if (this.stopped) return
    }
  }

  /**
   * The drain for an index that derives on its own thread: entries cross as JSON text (read as
   * text from the source when it can, so a huge aspect is never parsed or cloned on this thread).
   */
  private async drainAsText(applyLog: (entriesJson: string) => Promise<LogApplyResult>): Promise<void> {
    // Pages of at most TEXT_PAGE entries: reading 5,000 entries as text in one go held the event
    // loop ~50 ms; the loop serves other requests while the index thread applies each page.
    const pageSize = Math.min(this.batchSize, TEXT_PAGE)
    let cursor = await this.currentCursor()
    for (;;) {
      const text = this.source.changesJson
        ? await this.source.changesJson(cursor, pageSize)
        : JSON.stringify((await this.source.changes(cursor, pageSize)).entries)
      // A page of text may end early (the store bounds its characters): only an empty one ends
      // the drain, and an empty array costs no call to the index's thread.
      if (text === '[]') return
      const result = await applyLog(text)
      if (result.entries === 0) return
      this.applied += result.entries
      cursor = result.cursor
      this.cursor = cursor
      if (this.stopped) return
    }
  }
}
