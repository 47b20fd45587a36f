import { deserialize, type HeapInfo } from 'node:v8'
import type { Worker } from 'node:worker_threads'
import { fromWireError, startWorker, UnavailableError } from '@catalog/core'
import type {
  ApplyResult,
  AutocompleteRequest,
  AutocompleteResultPage,
  BrowseRequest,
  BrowseResultPage,
  BrowseV2Request,
  BrowseV2ResultPage,
  IndexChange,
  IndexedDocument,
  IndexStats,
  LogApplyResult,
  SearchIndex,
  SearchRequest,
  SearchResultPage,
} from '@catalog/search'
import type { BulkPage, PackedBulkPages } from '../bulk-page.js'
import type { IndexOp, WorkerCall, WorkerInit, WorkerReply } from './protocol.js'

export interface WorkerSearchOptions extends WorkerInit {
  /** Longest a search, autocomplete or browse may take before it is cancelled (default 10 s). */
  readonly queryBudgetMs?: number
  /**
   * Budget of a query that a new worker answers before its caches are loaded (it may load them:
   * default 10× the budget); once the worker has loaded them (it does while idle after it starts,
   * see `warmup`) or answered a query, queries have the budget.
   */
  readonly coldQueryBudgetMs?: number
  /** The worker's V8 young generation, MB (default {@link YOUNG_GENERATION_MB}). */
  readonly youngGenerationMb?: number
  /**
   * The worker's V8 old generation ceiling, MB (default V8's: a quarter of the machine's memory,
   * up to 4 GB). V8 lets the old generation grow to a multiple of what its last full collection
   * kept before it collects again, and that multiple grows with the ceiling (4× from 2 GB, ~1.6×
   * at 1 GB): a lower ceiling holds less garbage, at the price of failing a call that needs more.
   */
  readonly oldGenerationMb?: number
}

/**
 * The worker's V8 young generation, MB. V8's default (3 semi-spaces of up to 16 MB on 64-bit) is
 * sized for throughput; the worker's garbage is short-lived query and indexing temporaries. Under
 * a stream of writes the worker fills whatever young generation it has, and it stays resident: at
 * 16 MB the catalog held 372-390 MB (median 378) after the ingest benchmark's 1,000,000 aspects
 * against 397-409 MB (median 400) at 32 MB (`bench/ingest-rss.ts`, 3 alternated runs each), at
 * the same CPU per ingested aspect. The price is paid by searches: 5-13 % more of the catalog's CPU per search at
 * 200,000 datasets (`bench/mem-search-cpu.ts`, two runs of 5 alternated rounds: medians 15.2
 * against 14.3 ms, and 14.85 against 13.1 ms; 24 MB cost 5 % as well). Earlier, on the scale
 * benchmark's searches at 100,000 datasets, 32 MB against V8's default held 254-271 MB against
 * 274-367 MB at the same CPU per request.
 */
export const YOUNG_GENERATION_MB = 16

/**
 * The live index's SQLite page cache, MB, unless `cacheMb` says otherwise (a bulk build asks for
 * more): half of `SqliteSearchIndex`'s default of 32. A stream of new datasets fills whatever
 * cache the index has (FTS5's segments are merged as they grow), and it stays resident; the pages
 * left out are read again from the OS's cache. After the ingest benchmark's 1,000,000 aspects
 * the catalog held 284-295 MB (median 285) against 310-316 MB (median 313) at 32 MB, at 180-206
 * against 176-219 CPU-µs per aspect (`bench/ingest-rss.ts`, 3 alternated rounds, load 3-8);
 * searches and autocompletes at 500,000 datasets took 30.7 against 34.7 CPU-ms each, p95 85.7
 * against 86.4 ms (`bench/mem-search-cpu.ts`, medians of 4 alternated rounds); single writes
 * 364 against 351 CPU-µs, aspects of 100-proposal batches 128 against 137 (`bench/mem-ingest-cpu.ts`,
 * medians of 5 alternated rounds, with the writer thread's 4 MB cache against the code before):
 * all within the runs' noise.
 */
export const LIVE_CACHE_MB = 16

/** Default query budget: far above any search of the targets, far below a client's patience. */
export const DEFAULT_QUERY_BUDGET_MS = 10_000

const WORKER_URL = new URL('./search-worker.mjs', import.meta.url)
/** Queries that a budget bounds; writes and housekeeping always run to the end. */
const BUDGETED: ReadonlySet<IndexOp> = new Set(['search', 'autocomplete', 'browse', 'browseV2'])
/** A call that was in flight when the worker died this many times fails instead of retrying. */
const MAX_ATTEMPTS = 2
/**
 * A query that a new worker answers before it has loaded the index's in-memory caches (facet
 * values, scope, words; loaded in steps while the worker is idle after it starts) loads what is
 * left of them, which can cost what the whole index holds (seconds at a million documents, more
 * on a loaded machine); by default it gets this many times the budget, so it is not cancelled,
 * and the worker with it restarted cold, again and again.
 */
const COLD_BUDGET_FACTOR = 10

interface Pending {
  readonly call: WorkerCall
  readonly resolve: (value: unknown) => void
  readonly reject: (err: Error) => void
  attempts: number
  timer?: NodeJS.Timeout
  /** The budget its timer was armed with, ms. */
  budgetMs?: number
}

/**
 * The embedded search index on its own thread: a {@link SqliteSearchIndex} in a worker, so
 * indexing and heavy queries use the second core and never hold the event loop that answers
 * ingest, reads and `/health`. Calls run one at a time in the order made, so an applied change
 * is seen by every later query (read-your-writes). A query still running when its budget (counted
 * from when it starts) runs out is cancelled by ending the thread, so nothing keeps burning CPU
 * after its answer; it is answered with an {@link UnavailableError}, and the calls queued behind
 * it go to a fresh worker.
 */
export class WorkerSearchIndex implements SearchIndex {
  private worker: Worker | undefined
  private starting: Promise<void>
  private readonly pending = new Map<number, Pending>()
  private nextId = 1
  private closed = false
  private readonly budgetMs: number
  private readonly coldBudgetMs: number
  /** Whether the current worker loaded its caches or answered a query (they are loaded). */
  private warm = false
  /** Whether the current worker said it loaded its caches. */
  private warmed = false
  /** Called when the current worker has loaded its caches. */
  private warmWaiters: Array<() => void> = []

  private constructor(private readonly options: WorkerSearchOptions) {
    this.budgetMs = options.queryBudgetMs ?? DEFAULT_QUERY_BUDGET_MS
    this.coldBudgetMs = options.coldQueryBudgetMs ?? this.budgetMs * COLD_BUDGET_FACTOR
    this.starting = this.spawn()
  }

  /** Starts the worker and opens the index file; a file that cannot be opened is an {@link UnavailableError}. */
  static async open(options: WorkerSearchOptions): Promise<WorkerSearchIndex> {
    const index = new WorkerSearchIndex(options)
    try {
      await index.starting
    } catch (err) {
      index.closed = true
      await index.worker?.terminate()
      throw err
    }
    return index
  }

  cursor(): Promise<number> {
    return this.call('cursor', [])
  }

  apply(changes: readonly IndexChange[], cursor: number): Promise<ApplyResult> {
    return this.call('apply', [changes, cursor])
  }

  /** Sends the entries as text: the worker parses and derives them, the event loop only copies a string. */
  applyLog(entriesJson: string): Promise<LogApplyResult> {
    return this.call('applyLog', [entriesJson])
  }

  /**
   * Reads the next page of the change log (at most `limit` entries after the index's cursor)
   * from the embedded metadata store's file at `storeFile`, on the worker's own read-only
   * connection, and applies it: in one process nothing of the page is built on the event loop or
   * copied between threads (see `StoreChangeLog`). A page ends early when its values are large;
   * `entries: 0` means the index has the whole log.
   */
  applyStoreLog(storeFile: string, limit: number): Promise<LogApplyResult> {
    return this.call('applyStoreLog', [storeFile, limit])
  }

  search(request: SearchRequest): Promise<SearchResultPage> {
    return this.call('search', [request])
  }

  autocomplete(request: AutocompleteRequest): Promise<AutocompleteResultPage> {
    return this.call('autocomplete', [request])
  }

  browse(request: BrowseRequest): Promise<BrowseResultPage> {
    return this.call('browse', [request])
  }

  browseV2(request: BrowseV2Request): Promise<BrowseV2ResultPage> {
    return this.call('browseV2', [request])
  }

  document(urn: string): Promise<IndexedDocument | undefined> {
    return this.call('document', [urn])
  }

  clear(): Promise<void> {
    return this.call('clear', [])
  }

  stats(): Promise<IndexStats> {
    return this.call('stats', [])
  }

  /**
   * {@link apply} with the changes as JSON text: copying a string to the thread and parsing it
   * there costs about half of copying the objects (what `catalog import` hands the index).
   */
  applyJson(changesJson: string, cursor: number): Promise<ApplyResult> {
    return this.call('applyJson', [changesJson, cursor])
  }

  /** Writes a page of whole documents, or packed pages (see `SqliteSearchIndex.applyBulk`); copied to the thread. */
  applyBulk(pages: BulkPage | PackedBulkPages, cursor: number): Promise<ApplyResult> {
    return this.call('applyBulk', [pages, cursor])
  }

  /** Prepares a bulk build of about `expected` new documents (see `SqliteSearchIndex.beginBulk`). */
  beginBulk(expected: number): Promise<string[]> {
    return this.call('beginBulk', [expected])
  }

  /** Ends a bulk build (see `SqliteSearchIndex.endBulk`). */
  endBulk(): Promise<void> {
    return this.call('endBulk', [])
  }

  /** Whether the worker's query caches are loaded, and how many loads queries had to do themselves. */
  cacheState(): Promise<{ warm: boolean; queryLoads: number }> {
    return this.call('cacheState', [])
  }

  /** The worker's V8 heap: what it holds and its ceiling (for benchmarks and diagnostics). */
  heapStatistics(): Promise<HeapInfo> {
    return this.call('heapStatistics', [])
  }

  /** Resolves once the current worker has loaded its query caches (never, with `warmup: false`). */
  whenWarm(): Promise<void> {
    if (this.warmed) return Promise.resolve()
    return new Promise((resolve) => this.warmWaiters.push(resolve))
  }

  async close(): Promise<void> {
    if (this.closed) return
    try {
      await this.call('close', [])
    } finally {
      this.closed = true
      await this.worker?.terminate()
      this.worker = undefined
    }
  }

  private async call<T>(op: IndexOp, args: readonly unknown[]): Promise<T> {
    if (this.closed) throw new UnavailableError('the search index is closed')
    await this.starting
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = {
        call: { id: this.nextId++, op, args },
        resolve: resolve as (value: unknown) => void,
        reject,
        attempts: 0,
      }
      this.pending.set(pending.call.id, pending)
      this.send(pending)
      this.armHead()
    })
  }

  private send(pending: Pending): void {
    pending.attempts++
    this.worker?.postMessage(pending.call)
  }

  /**
   * The worker runs calls in order, so the oldest unanswered call is the one running: a query's
   * budget starts when it reaches the head, not while it waits behind others.
   */
  private armHead(): void {
    const head = this.pending.values().next().value as Pending | undefined
    if (head && BUDGETED.has(head.call.op) && !head.timer) {
      head.budgetMs = this.warm ? this.budgetMs : this.coldBudgetMs
      head.timer = setTimeout(() => this.overBudget(head), head.budgetMs)
    }
  }

  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id)
    if (!pending) return undefined
    this.pending.delete(id)
    clearTimeout(pending.timer)
    this.armHead()
    return pending
  }

  /** A query ran past its budget: answer it, end the thread, resend what was queued behind it. */
  private overBudget(pending: Pending): void {
    if (!this.pending.has(pending.call.id)) return
    // The call behind it runs on a new worker, cold.
    this.warm = false
    this.settle(pending.call.id)
    pending.reject(
      new UnavailableError(
        `The ${pending.call.op} took longer than its budget of ${pending.budgetMs ?? this.budgetMs} ms and was cancelled; narrow the query or its filters`,
      ),
    )
    void this.restart()
  }

  private async restart(): Promise<void> {
    const old = this.worker
    this.worker = undefined
    this.starting = this.spawn()
    await old?.terminate()
    try {
      await this.starting
    } catch (err) {
      // The index no longer opens (its file is gone or broken): fail what waits, end the thread.
      for (const id of [...this.pending.keys()]) this.settle(id)?.reject(err as Error)
      // `spawn` set the worker that failed to open; TypeScript still sees the `undefined` above.
      await (this.worker as Worker | undefined)?.terminate()
      return
    }
    for (const pending of [...this.pending.values()]) {
      if (pending.attempts >= MAX_ATTEMPTS) {
        this.settle(pending.call.id)?.reject(
          new UnavailableError(`The search index failed twice while running ${pending.call.op}`),
        )
      } else this.send(pending)
    }
  }

  private spawn(): Promise<void> {
    const worker = startWorker(WORKER_URL, {
      workerData: {
        file: this.options.file,
        cacheMb: this.options.cacheMb ?? LIVE_CACHE_MB,
        warmup: this.options.warmup,
        lowerPriority: this.options.lowerPriority,
      } satisfies WorkerInit,
      resourceLimits: {
        maxYoungGenerationSizeMb: this.options.youngGenerationMb ?? YOUNG_GENERATION_MB,
        ...(this.options.oldGenerationMb ? { maxOldGenerationSizeMb: this.options.oldGenerationMb } : {}),
      },
    })
    this.worker = worker
    this.warm = false
    this.warmed = false
    return new Promise<void>((resolve, reject) => {
      let ready = false
      worker.on('message', (reply: WorkerReply) => {
        if ('ready' in reply) {
          ready = reply.ready
          if (reply.ready) resolve()
          else
            reject(
              new UnavailableError(
                `cannot open the search index at ${this.options.file}: ${reply.error.message}`,
              ),
            )
          return
        }
        if ('warmed' in reply) {
          if (this.worker !== worker) return
          // The caches are loaded: from the next query on, queries have the normal budget.
          this.warm = true
          this.warmed = true
          for (const resolve of this.warmWaiters.splice(0)) resolve()
          return
        }
        // A query answered: the worker's caches are loaded (set before the next call is armed).
        const op = this.pending.get(reply.id)?.call.op
        if (reply.ok && op && BUDGETED.has(op)) this.warm = true
        const pending = this.settle(reply.id)
        if (!pending) return
        if (!reply.ok) pending.reject(fromWireError(reply.error))
        else if (reply.hitChunks) withHits(reply.value, reply.hitChunks).then(pending.resolve, pending.reject)
        else pending.resolve(reply.value)
      })
      worker.on('error', (err) => {
        if (!ready)
          reject(new UnavailableError(`the search worker failed to start: ${err.message}`, { cause: err }))
      })
      worker.on('exit', () => {
        if (!ready) reject(new UnavailableError('the search worker stopped before it was ready'))
        // A worker that died on its own (not ended by restart or close): start another one.
        else if (this.worker === worker && !this.closed) void this.restart()
      })
    })
  }
}

/** A search page whose hits came apart (see `HITS_PER_CHUNK`), with its hits again: a chunk per event-loop turn. */
async function withHits(value: unknown, chunks: readonly Uint8Array[]): Promise<unknown> {
  const hits: unknown[] = []
  for (const chunk of chunks) {
    await new Promise((resolve) => setImmediate(resolve))
    for (const hit of deserialize(chunk) as unknown[]) hits.push(hit)
  }
  return { ...(value as object), hits }
}
