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
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly ready: true }
  /** The query caches are loaded: the next query finds them ready. */
  | { readonly warmed: true }
  | { readonly ready: false; readonly error: WireError }
