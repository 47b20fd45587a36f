import t from 'tap'
import { inSlices } from './time-slices.js'

const busy = (ms: number) => {
  const end = performance.now() + ms
  while (performance.now() < end) {
    // work that holds the event loop
  }
}

t.test('every item in order; the event loop is served between slices', async (t) => {
  const seen: number[] = []
  let ticks = 0
  let running = true
  const tick = () => {
    ticks++
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  const ticksAt: number[] = []
  await inSlices(
    Array.from({ length: 20 }, (_, i) => i),
    (item, index) => {
      t.equal(item, index)
      seen.push(item)
      ticksAt.push(ticks)
      busy(2)
    },
    5,
  )
  running = false
  t.same(
    seen,
    Array.from({ length: 20 }, (_, i) => i),
  )
  t.ok((ticksAt.at(-1) ?? 0) - (ticksAt[0] ?? 0) >= 5, `turns passed between slices (${ticksAt.join(',')})`)
  // A slice of 5 ms holds 2-3 items of 2 ms each: no more than 3 items between two turns.
  const perTurn = new Map<number, number>()
  for (const at of ticksAt) perTurn.set(at, (perTurn.get(at) ?? 0) + 1)
  t.ok(Math.max(...perTurn.values()) <= 3, `at most 3 items per slice (${[...perTurn.values()].join(',')})`)
})

t.test('a batch within one slice runs without waiting a turn', async (t) => {
  let ran = 0
  let turned = false
  setImmediate(() => {
    turned = true
  })
  await inSlices([1, 2, 3], () => ran++)
  t.equal(ran, 3)
  t.notOk(turned, 'no event-loop turn passed')
})

t.test('a throwing step ends the run with its error', async (t) => {
  const seen: number[] = []
  await t.rejects(
    inSlices([1, 2, 3], (item) => {
      if (item === 2) throw new Error('bad item 2')
      seen.push(item)
    }),
    /bad item 2/,
  )
  t.same(seen, [1])
})
