/** Longest stretch of work between two event-loop turns, ms. */
export const SLICE_MS = 8

/** Work on the event loop in slices of at most `sliceMs` ({@link SLICE_MS} by default). */
export class TimeSlices {
  private until: number

  constructor(private readonly sliceMs = SLICE_MS) {
    this.until = performance.now() + sliceMs
  }

  /** Whether the current slice has run its time (then {@link next} gives the event loop a turn). */
  get due(): boolean {
    return performance.now() >= this.until
  }

  async next(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve))
    this.until = performance.now() + this.sliceMs
  }
}

/**
 * Runs `step` on every item in order, yielding to the event loop whenever a stretch of work
 * passes `sliceMs`: a batch of 10,000 proposals validated in one go held every other request
 * for half a second. A batch done within one slice never waits a turn. A throwing step ends it.
 */
export async function inSlices<T>(
  items: readonly T[],
  step: (item: T, index: number) => void,
  sliceMs = SLICE_MS,
): Promise<void> {
  const slices = new TimeSlices(sliceMs)
  for (let i = 0; i < items.length; i++) {
    step(items[i] as T, i)
    if (slices.due && i + 1 < items.length) await slices.next()
  }
}
