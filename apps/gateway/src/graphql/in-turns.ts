import { TurnPacer } from './turn-pacer.js'

/** Lists up to this long are built and returned at once. */
const SHORT = 20

/**
 * A long result list whose items after the first {@link SHORT} are promises, built and released a
 * step per event-loop turn, each step as many items as `pacer` gives (sized by time). graphql-js
 * completes a list item when it settles, so a page of thousands of results is completed in steps,
 * with other requests served between them, instead of in one synchronous run. `ready(item)`, when
 * given, is awaited before an item settles (whatever it resolves to): the item's entity loaded,
 * so that its fields complete at once. `itemAt(i)` builds item `i`, once, when it is released.
 */
export function inTurns<T>(
  count: number,
  itemAt: (i: number) => T,
  pacer: TurnPacer = new TurnPacer(),
  ready?: (item: T) => Promise<unknown>,
): Array<T | Promise<T>> {
  const out: Array<T | Promise<T>> = []
  for (let i = 0; i < Math.min(count, SHORT); i++) out.push(itemAt(i))
  if (count <= SHORT) return out
  // One executor for every promise (no closure per item): it keeps each promise's resolve.
  const settle: Array<(item: T) => void> = []
  const keep = (resolve: (item: T) => void) => {
    settle.push(resolve)
  }
  for (let i = SHORT; i < count; i++) out.push(new Promise<T>(keep))
  let next = SHORT
  const step = () => {
    const end = Math.min(count, next + pacer.next())
    for (; next < end; next++) {
      const item = itemAt(next)
      const resolve = settle[next - SHORT] as (item: T) => void
      settle[next - SHORT] = noop
      if (ready)
        ready(item).then(
          () => resolve(item),
          () => resolve(item),
        )
      else resolve(item)
    }
    if (next < count) setImmediate(step)
  }
  setImmediate(step)
  return out
}

const noop = () => {}
