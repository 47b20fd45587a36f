/** Items released per event-loop turn. */
const CHUNK = 100

/**
 * A long result list whose items after the first {@link CHUNK} are promises, released `chunk`
 * per event-loop turn. graphql-js completes a list item when it settles, so a page of thousands
 * of results is completed in steps, with other requests served between them, instead of in one
 * synchronous run. Short lists are returned as they are.
 */
export function inTurns<T>(items: readonly T[], chunk = CHUNK): Array<T | Promise<T>> {
  if (items.length <= chunk) return [...items]
  const out: Array<T | Promise<T>> = items.slice(0, chunk)
  let turn: Promise<void> = Promise.resolve()
  for (let i = chunk; i < items.length; i += chunk) {
    // Each chunk waits for the turn after the previous chunk's: one setImmediate each.
    turn = turn.then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    const released = turn
    for (const item of items.slice(i, i + chunk)) out.push(released.then(() => item))
  }
  return out
}
