import type { Worker } from 'node:worker_threads'
import { fromWireError, startWorker, UnavailableError, type WireError } from '@catalog/core'
import { LatestChangedError, type WriteBatch, type WriteOutcome } from '@catalog/store'
import {
  type CheckpointResult,
  outcomeFromWire,
  type WireBatch,
  type WireOutcome,
  type WriterCall,
  type WriterReply,
} from './sqlite-write-wire.js'

const WORKER_URL = new URL('./sqlite-write-worker.mjs', import.meta.url)
/**
 * The writer thread's V8 young generation, in MB: its garbage is each large batch's parsed form,
 * dropped once committed. With node's default (32) its heap held 43-44 MB after the ingest
 * benchmark's batches of 1,000 proposals, 7-30 MB with this.
 */
export const WRITER_YOUNG_GENERATION_MB = 8

type Answer = WireOutcome | CheckpointResult | ReadonlyArray<Uint8Array | null>

interface InFlight {
  readonly resolve: (answer: Answer) => void
  readonly reject: (err: Error) => void
}

/**
 * The store's writer thread, seen from the event loop: a worker with its own connection to the
 * database file that applies large batches (see `THREAD_WRITE_WEIGHT`), so their SQLite work
 * (megabytes of aspect and change-log text, tens of thousands of edges) runs on another core
 * while this thread keeps answering. Started at the first large write; the store sends one
 * batch at a time and writes nothing itself meanwhile, so SQLite's single writer never waits.
 */
export class SqliteWriteThread {
  private worker: Worker | undefined
  private starting: Promise<Worker> | undefined
  private readonly inFlight = new Map<number, InFlight>()
  private nextId = 1

  constructor(private readonly file: string) {}

  /** Applies `batch` (as `batchToWire` made it, `wire`) in its own transaction; resolves once committed. */
  async write(wire: WireBatch, batch: WriteBatch): Promise<WriteOutcome> {
    const worker = await this.start()
    const id = this.nextId++
    const outcome = await new Promise<WireOutcome>((resolve, reject) => {
      this.inFlight.set(id, { resolve: resolve as InFlight['resolve'], reject })
      worker.postMessage({ id, batch: wire } satisfies WriterCall)
    })
    return outcomeFromWire(outcome, batch)
  }

  /**
   * A PASSIVE checkpoint of the WAL on the thread's connection: copies committed pages back to
   * the database file without waiting for readers or holding up the event loop's writes.
   */
  async checkpoint(): Promise<CheckpointResult> {
    const worker = await this.start()
    const id = this.nextId++
    return new Promise<CheckpointResult>((resolve, reject) => {
      this.inFlight.set(id, { resolve: resolve as InFlight['resolve'], reject })
      worker.postMessage({ id, checkpoint: true } satisfies WriterCall)
    })
  }

  /**
   * The latest values of aspects as the UTF-8 bytes of their stored text (null when absent), read
   * on the thread's connection into shared memory: a 16 MB value read on the event loop held it
   * ~30 ms. Waits behind a write the thread is committing; sees what is committed.
   */
  async read(
    keys: ReadonlyArray<{ urn: string; aspect: string }>,
  ): Promise<ReadonlyArray<Uint8Array | null>> {
    const worker = await this.start()
    const id = this.nextId++
    return new Promise<ReadonlyArray<Uint8Array | null>>((resolve, reject) => {
      this.inFlight.set(id, { resolve: resolve as InFlight['resolve'], reject })
      worker.postMessage({
        id,
        read: keys.map((k) => ({ urn: k.urn, aspect: k.aspect })),
      } satisfies WriterCall)
    })
  }

  /** Whether the thread is up and answering (it starts at {@link warm} or the first call). */
  get ready(): boolean {
    return this.worker !== undefined
  }

  /** Starts the thread now rather than at the first large write; a failure to start shows at that write. */
  warm(): Promise<void> {
    return this.start().then(
      () => undefined,
      () => undefined,
    )
  }

  /** Closes the thread's connection and waits for the thread to end. */
  async close(): Promise<void> {
    const worker = this.starting ? await this.starting.catch(() => undefined) : undefined
    this.starting = undefined
    this.worker = undefined
    if (!worker) return
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
    worker.postMessage({ close: true } satisfies WriterCall)
    await exited
  }

  private start(): Promise<Worker> {
    this.starting ??= new Promise<Worker>((resolve, reject) => {
      const worker = startWorker(WORKER_URL, {
        workerData: { file: this.file },
        resourceLimits: { maxYoungGenerationSizeMb: WRITER_YOUNG_GENERATION_MB },
      })
      let ready = false
      worker.on('message', (reply: WriterReply) => {
        if ('ready' in reply) {
          ready = reply.ready
          if (reply.ready) {
            this.worker = worker
            resolve(worker)
          } else {
            const message = fromWireError(reply.error).message
            reject(
              new UnavailableError(`the metadata store's writer thread cannot open ${this.file}: ${message}`),
            )
          }
          return
        }
        const call = this.inFlight.get(reply.id)
        this.inFlight.delete(reply.id)
        if (reply.ok)
          call?.resolve(
            'checkpoint' in reply ? reply.checkpoint : 'values' in reply ? reply.values : reply.outcome,
          )
        else call?.reject(fromWire(reply.error))
      })
      worker.on('error', (err) => {
        if (!ready)
          reject(new UnavailableError(`the writer thread failed to start: ${err.message}`, { cause: err }))
      })
      worker.on('exit', () => {
        if (!ready) reject(new UnavailableError('the writer thread stopped before it was ready'))
        // A thread that ended with writes in flight (it crashed): they fail; the next write starts another.
        for (const call of this.inFlight.values())
          call.reject(new UnavailableError('the metadata store writer thread stopped'))
        this.inFlight.clear()
        if (this.worker === worker) {
          this.worker = undefined
          this.starting = undefined
        }
      })
    })
    const starting = this.starting
    // A thread that failed to start is not kept: the next write tries again.
    starting.catch(() => {
      if (this.starting === starting) this.starting = undefined
    })
    return starting
  }
}

/** A write's failure again on the event loop, a {@link LatestChangedError} included (the caller retries on it). */
function fromWire(error: WireError): Error {
  return error.name === LatestChangedError.name
    ? LatestChangedError.fromMessage(error.message)
    : fromWireError(error)
}
