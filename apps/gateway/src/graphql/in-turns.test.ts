import t from 'tap'
import { inTurns } from './in-turns.js'
import { TurnPacer } from './turn-pacer.js'

/** A ticker counting event-loop turns: an immediate that queues itself runs once per turn. */
function turnCounter() {
  const counter = { turns: 0, running: true }
  const tick = () => {
    counter.turns++
    if (counter.running) setImmediate(tick)
  }
  setImmediate(tick)
  return counter
}

t.test('short lists stay as they are', async (t) => {
  t.same(
    inTurns(3, (i) => i + 1),
    [1, 2, 3],
  )
})

t.test('a long list settles step by step, one event-loop turn apart, in order', async (t) => {
  const items = Array.from({ length: 100 }, (_, i) => i)
  // A pacer that always gives 10: a step's size is the pacer's to decide.
  const built: number[] = []
  const out = inTurns(
    items.length,
    (i) => {
      built.push(i)
      return i
    },
    { next: () => 10 } as TurnPacer,
  )
  t.equal(built.length, 20, 'only the first items are built at once')
  t.same(out.slice(0, 20), items.slice(0, 20), 'the first items are plain values')
  const counter = turnCounter()
  const settled = await Promise.all(out.map(async (v) => ({ value: await v, turn: counter.turns })))
  counter.running = false
  t.same(
    settled.map((s) => s.value),
    items,
    'every item, in order',
  )
  const turn = settled.map((s) => s.turn)
  const at = (i: number) => turn[i] ?? -1
  t.same(turn.slice(0, 20), Array(20).fill(0), 'the first items before any turn')
  t.ok(at(20) === at(29) && at(30) === at(39), `each step settles together (${turn.join(',')})`)
  t.ok(at(30) > at(29) && at(90) > at(89), 'and the next step a turn later')
})

t.test('an item waits for what `ready` gives, and settles even when that fails', async (t) => {
  const items = Array.from({ length: 30 }, (_, i) => i)
  let release: () => void = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const out = inTurns(
    items.length,
    (i) => i,
    new TurnPacer(),
    (i) => (i === 25 ? gate : Promise.reject(new Error('gone'))),
  )
  let late = false
  const last = (out[25] as Promise<number>).then((v) => {
    late = true
    return v
  })
  t.same(
    await Promise.all(out.filter((_, i) => i !== 25)),
    items.filter((i) => i !== 25),
    'failed waits settle',
  )
  await new Promise((resolve) => setImmediate(resolve))
  t.notOk(late, 'the item whose wait is open has not settled')
  release()
  t.equal(await last, 25, 'and settles once it is over')
})

t.test('a pacer sizes its steps by the time they take', async (t) => {
  let clock = 0
  const pacer = new TurnPacer(6, 20, 4, 1_000, () => clock)
  t.equal(pacer.next(), 20, 'the first step takes the first count')
  clock += 24
  t.equal(pacer.next(), 5, 'a step four times too long: a quarter as many')
  clock += 100
  t.equal(pacer.next(), 4, 'never fewer than the least')
  clock += 1
  t.equal(pacer.next(), 8, 'a short step: at most twice as many')
  clock += 4
  t.equal(pacer.next(), 12, 'a step of two thirds of the aim: half as many again')
  for (let i = 0; i < 20; i++) pacer.next()
  t.equal(pacer.next(), 1_000, 'steps that take no time grow to the most')
})
