/** Longest stretch of work between two event-loop turns. */
export const SLICE_MS = 8

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

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
  let until = performance.now() + sliceMs
  for (let i = 0; i < items.length; i++) {
    step(items[i] as T, i)
    if (performance.now() >= until && i + 1 < items.length) {
      await turn()
      until = performance.now() + sliceMs
    }
  }
}
