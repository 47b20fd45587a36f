import t from 'tap'
import { holdsMoreThan, stringifyInTurns } from './stringify-in-turns.js'

t.test('the text is exactly what JSON.stringify writes', async (t) => {
  const bare = Object.create(null) as Record<string, unknown>
  bare.x = 1
  const values: unknown[] = [
    null,
    'text "quoted" \u2028',
    42,
    { a: undefined, b: () => 1, c: [undefined, () => 1, Symbol('s'), null], d: new Date(0) },
    Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? undefined : { i, nested: { deep: [i, [i]] } })),
    { data: { page: { results: Array.from({ length: 500 }, (_, i) => ({ urn: `u${i}`, n: bare })) } } },
    { first: undefined, second: 1, third: undefined },
    { toJSON: () => Array.from({ length: 100 }, (_, i) => i) },
    [],
    {},
    Array.from({ length: 50 }, (_, i) => ({
      i,
      list: Array.from({ length: 100 }, (_, k) => ({ k, u: undefined })),
    })),
    [{ toJSON: () => undefined }, { x: { toJSON: () => ({ y: [1, { toJSON: () => 'z' }] }) } }],
  ]
  for (const v of values) t.equal(await stringifyInTurns(v, 0), JSON.stringify(v))
})

t.test('a long array is written across event-loop turns', async (t) => {
  const value = { data: Array.from({ length: 2000 }, (_, i) => ({ i, text: 'x'.repeat(200) })) }
  let turns = 0
  let running = true
  const tick = () => {
    turns++
    if (running) setImmediate(tick)
  }
  setImmediate(tick)
  const text = await stringifyInTurns(value, 0)
  running = false
  t.equal(text, JSON.stringify(value))
  t.ok(turns > 20, `other work ran ${turns} times while it was written`)
})

t.test('holdsMoreThan counts values and stops at the limit', async (t) => {
  t.notOk(holdsMoreThan({ a: [1, 2], b: 'x' }, 5), '5 values')
  t.ok(holdsMoreThan({ a: [1, 2], b: 'x' }, 4))
  t.ok(
    holdsMoreThan(
      Array.from({ length: 1e6 }, () => 0),
      10,
    ),
  )
})
