import t from 'tap'
import { inTurns } from './in-turns.js'

t.test('short lists stay as they are', async (t) => {
  t.same(inTurns([1, 2, 3], 5), [1, 2, 3])
})

t.test('a long list settles chunk by chunk, one event-loop turn apart, in order', async (t) => {
  const items = Array.from({ length: 10 }, (_, i) => i)
  const out = inTurns(items, 4)
  t.same(out.slice(0, 4), [0, 1, 2, 3], 'the first chunk is plain values')
  // A ticker counting event-loop turns beside it.
  let turns = 0
  let running = true
  const tick = () => {
    turns++
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  const settled = await Promise.all(out.map(async (v) => ({ value: await v, turn: turns })))
  running = false
  t.same(
    settled.map((s) => s.value),
    items,
    'every item, in order',
  )
  const turn = settled.map((s) => s.turn)
  const at = (i: number) => turn[i] ?? -1
  t.same(turn.slice(0, 4), [0, 0, 0, 0], 'the first chunk before any turn')
  t.ok(at(4) === at(7) && at(8) === at(9), `each chunk settles together (${turn.join(',')})`)
  t.ok(at(4) > at(3) && at(8) > at(7), 'and the next chunk a turn later')
})
