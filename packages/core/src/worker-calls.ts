import type { ResourceLimits, Transferable, Worker } from 'node:worker_threads'
import { UnavailableError } from './errors.js'
import { startWorker } from './worker-exec-argv.js'

interface Waiting<Reply> {
  readonly resolve: (reply: Reply) => void
  readonly reject: (err: Error) => void
}

/**
 * Calls to one worker thread, each answered by one reply with the call's `id`. The worker is
 * started at the first call (or {@link warm}); it keeps the process alive only while a call is
 * waiting; if it stops, the waiting calls fail with {@link UnavailableError} and the next call
 * starts a new one. With `idleMs`, a worker no call has waited on for that long is stopped (its
 * thread and heap, ~10-15 MB, given back); the next call starts a new one.
 */
export class WorkerCalls<Call extends { readonly id: number }, Reply extends { readonly id: number }> {
  private worker: Worker | undefined
  private readonly waiting = new Map<number, Waiting<Reply>>()
  private nextId = 1
  private idleTimer: NodeJS.Timeout | undefined

  /**
   * `stopped` completes "the … worker stopped; retry …" for calls a stopped worker leaves;
   * `resourceLimits` bounds the worker's V8 heap (its young generation, say).
   */
  constructor(
    private readonly url: URL,
    private readonly stopped: string,
    private readonly idleMs?: number,
    private readonly resourceLimits?: ResourceLimits,
  ) {}

  /** Whether a worker thread is running (started and not stopped since). */
  get running(): boolean {
    return this.worker !== undefined
  }

  /** Sends a call (its `transfer` list moved, not copied) and resolves with the worker's reply. */
  call(call: Omit<Call, 'id'>, transfer: readonly Transferable[] = []): Promise<Reply> {
    this.worker ??= this.start()
    const thread = this.worker
    const id = this.nextId++
    thread.ref()
    clearTimeout(this.idleTimer)
    return new Promise<Reply>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      thread.postMessage({ ...call, id }, [...transfer])
    })
  }

  /** Starts the worker now rather than at the first call, without keeping the process alive. */
  warm(): void {
    this.worker ??= this.start()
    if (this.waiting.size === 0) {
      this.worker.unref()
      this.stopWhenIdle(this.worker)
    }
  }

  /** Stops `thread` after {@link idleMs} unless a call comes meanwhile. */
  private stopWhenIdle(thread: Worker): void {
    if (this.idleMs === undefined) return
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => {
      if (this.worker !== thread || this.waiting.size > 0) return
      this.worker = undefined
      void thread.terminate()
    }, this.idleMs)
    this.idleTimer.unref()
  }

  private start(): Worker {
    const thread = startWorker(this.url, this.resourceLimits ? { resourceLimits: this.resourceLimits } : {})
    thread.on('message', (reply: Reply) => {
      const call = this.waiting.get(reply.id)
      this.waiting.delete(reply.id)
      if (this.waiting.size === 0) {
        thread.unref()
        this.stopWhenIdle(thread)
      }
      call?.resolve(reply)
    })
    thread.on('error', () => {
      // Reported by 'exit' below.
    })
    thread.on('exit', () => {
      // A worker stopped for idleness has no calls; those waiting now are its successor's.
      if (this.worker !== thread) return
      this.worker = undefined
      for (const call of this.waiting.values()) call.reject(new UnavailableError(this.stopped))
      this.waiting.clear()
    })
    return thread
  }
}
