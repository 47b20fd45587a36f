import type { WireError } from '@catalog/core'
import type { SearchIndex } from '@catalog/search'

/** The index operations the worker runs, by name: the port's, and the bulk build's. */
export type IndexOp =
  | keyof SearchIndex
  | 'applyJson'
  | 'applyStoreLog'
  | 'applyBulk'
  | 'beginBulk'
  | 'endBulk'
  | 'cacheState'
  | 'heapStatistics'

/** What the worker is started with (`workerData`). */
export interface WorkerInit {
  readonly file: string
  readonly cacheMb?: number
  /** Loads the query caches in steps while idle after opening (default true). */
  readonly warmup?: boolean
  /**
   * Runs the thread at a lower priority than the process's (default true), so that a busy
   * worker never holds the CPU a server's event loop needs; false for an offline bulk build
   * (`catalog import`), whose writes are the work.
   */
  readonly lowerPriority?: boolean
}

/** Main thread to worker: run `op` with `args`. */
export interface WorkerCall {
  readonly id: number
  readonly op: IndexOp
  readonly args: readonly unknown[]
}

/** Worker to main thread: the answer to call `id`, or its failure; or the start-up outcome. */
/** A search page holding more hits than this sends them apart, in chunks of this many (see {@link WorkerReply}). */
export const HITS_PER_CHUNK = 1_000

export type WorkerReply =
  /**
   * A call's value. A search page of more than {@link HITS_PER_CHUNK} hits comes with no hits in
   * `value` and its hits in `hitChunks`, V8-serialized, {@link HITS_PER_CHUNK} each (transferred):
   * the event loop reads them a chunk per turn, where copying 10,000 hits in took ~40 ms at once.
   */
  | {
      readonly id: number
      readonly ok: true
      readonly value: unknown
      readonly hitChunks?: readonly Uint8Array[]
    }
  | { readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly ready: true }
  /** The query caches are loaded: the next query finds them ready. */
  | { readonly warmed: true }
  | { readonly ready: false; readonly error: WireError }
