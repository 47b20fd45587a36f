/** Event-loop time one step of a long piece of work aims at, in ms. */
export const STEP_MS = 6

/**
 * How many items of a long piece of work to take in each event-loop turn, sized by time: each
 * call to {@link next} starts a step, and the time since the previous step started (its items,
 * the promise callbacks they set off, and whatever else that turn of the loop ran) scales the
 * count, so a step takes about {@link STEP_MS} however costly the items are or however busy the
 * machine is. A count per turn fixed in advance held the loop 25-100 ms per turn on a loaded
 * machine for a page of 10,000 search results.
 */
export class TurnPacer {
  private count: number
  private startedAt = -1

  constructor(
    private readonly targetMs = STEP_MS,
    first = 20,
    private readonly min = 4,
    private readonly max = 1_000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.count = first
  }

  /** Starts a step: how many items it takes. */
  next(): number {
    const now = this.now()
    if (this.startedAt >= 0) {
      const spent = Math.max(now - this.startedAt, 0.25)
      // At most twice as many as the step before, at least a quarter as many: one fast or slow
      // turn (a garbage collection) does not swing the count.
      const scaled = this.count * Math.min(2, Math.max(0.25, this.targetMs / spent))
      this.count = Math.round(Math.min(this.max, Math.max(this.min, scaled)))
    }
    this.startedAt = now
    return this.count
  }
}
