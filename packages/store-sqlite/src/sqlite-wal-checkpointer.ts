import type { CheckpointResult } from './sqlite-write-wire.js'

/**
 * The WAL size (bytes) that calls for a checkpoint, as SQLite's automatic one (1,000 pages of
 * 4 KB). The store also sets it as `journal_size_limit`: when the WAL restarts, its file is cut
 * back to this size, so a larger file means the WAL grew past it since.
 */
export const WAL_CHECKPOINT_BYTES = 4 * 1024 * 1024
/** After this long, any commit since the last checkpoint gets one: a slow writer's WAL is copied back too. */
const MAX_INTERVAL_MS = 2_000

export interface WalCheckpointerOptions {
  /**
   * Runs one PASSIVE checkpoint on the writer thread's connection while this connection writes
   * nothing (so that it copies every frame and the next write restarts the WAL).
   */
  readonly offLoop: () => Promise<CheckpointResult>
  /** Whether the writer thread is up; until it is, SQLite's automatic checkpoint stays on. */
  readonly ready: () => boolean
  /** Turns SQLite's automatic checkpoint (in the COMMIT, on the event loop) off. */
  readonly takeOver: () => void
  /** Turns it back on: the thread stopped, or its checkpoint failed. */
  readonly giveBack: () => void
  /** The size of the WAL file in bytes (0 when there is none yet). */
  readonly walBytes: () => number
}

/**
 * Keeps the store's WAL short without checkpointing on the event loop. SQLite's automatic
 * checkpoint runs inside the COMMIT that crosses 1,000 WAL pages, fsyncs included: about half
 * of a commit's time under a steady load of small writes. Once the writer thread is up, the
 * store turns it off and calls {@link committed} after each commit group; when the WAL has
 * grown past {@link WAL_CHECKPOINT_BYTES} (or a slow writer's commits are 2 s old), the writer
 * thread runs a PASSIVE checkpoint while the store's writes wait in its queue (the event loop
 * goes on answering). With no writer appending meanwhile, the checkpoint copies every frame and
 * the next write starts the WAL over; checkpointing beside a steady writer never catches up
 * and the WAL would grow without end. PASSIVE never waits for readers: a reader holding an old
 * snapshot leaves part of the WAL for the next checkpoint, as with SQLite's own.
 */
export class WalCheckpointer {
  private running: Promise<void> | undefined
  private lastDone = performance.now()
  private took = false
  private failed = false

  constructor(private readonly options: WalCheckpointerOptions) {}

  /** Notes a committed group; may start a checkpoint on the writer thread. */
  committed(): void {
    if (this.running || this.failed) return
    if (!this.options.ready()) {
      if (this.took) {
        this.took = false
        this.options.giveBack()
      }
      return
    }
    if (!this.took) {
      this.took = true
      this.options.takeOver()
    }
    const stale = performance.now() - this.lastDone >= MAX_INTERVAL_MS
    if (!stale && this.options.walBytes() <= WAL_CHECKPOINT_BYTES) return
    const run = this.options.offLoop().then(
      () => undefined,
      () => {
        this.failed = true
        this.took = false
        this.options.giveBack()
      },
    )
    this.running = run.finally(() => {
      this.running = undefined
      this.lastDone = performance.now()
    })
  }

  /** Resolves when no checkpoint is in flight. */
  async idle(): Promise<void> {
    while (this.running) await this.running
  }
}
