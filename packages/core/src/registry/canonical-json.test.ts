import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { canonicalJson } from './canonical-json.js'

/** The definition canonicalJson must match byte for byte: a sorted copy of every object. */
const reference = (value: unknown) =>
  JSON.stringify(value, (_key, member: unknown) => {
    if (member === null || typeof member !== 'object' || Array.isArray(member)) return member
    const sorted: Record<string, unknown> = {}
    for (const key of Object.keys(member).sort()) sorted[key] = (member as Record<string, unknown>)[key]
    return sorted
  })

const GOLDEN = fileURLToPath(new URL('../../../../test/fixtures/datahub/golden/', import.meta.url))

t.test('every record of the golden files comes out as the sorting replacer writes it', async (t) => {
  let records = 0
  for (const file of readdirSync(GOLDEN).filter((f) => f.endsWith('.json'))) {
    const data = JSON.parse(readFileSync(join(GOLDEN, file), 'utf8')) as unknown
    for (const record of Array.isArray(data) ? data : [data]) {
      records++
      const got = canonicalJson(record)
      if (got !== reference(record)) t.fail(`${file}: record ${records} differs`, { got })
    }
  }
  t.ok(records > 1000, `${records} records compared`)
})

t.test('keys sort by code unit, with array-index keys first in numeric order', async (t) => {
  t.equal(
    canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }),
    '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
  )
  const mixed = JSON.parse('{"b":1,"10":2,"a":3,"2":4,"B":5,"01":6,"4294967295":7,"é":8}') as unknown
  t.equal(canonicalJson(mixed), reference(mixed))
  t.equal(canonicalJson(mixed), '{"2":4,"10":2,"01":6,"4294967295":7,"B":5,"a":3,"b":1,"é":8}')
})

t.test('what JSON.stringify leaves out, writes as null, or hands to toJSON stays the same', async (t) => {
  const values: unknown[] = [
    { a: undefined, b: () => 1, c: Symbol('s'), d: 1 },
    [undefined, () => 1, Symbol('s'), Number.NaN, Number.POSITIVE_INFINITY, -0],
    // biome-ignore lint/suspicious/noSparseArray: a hole is written as null
    [1, , 3],
    { when: new Date(0), nested: { toJSON: () => ({ z: 1, a: 2 }) } },
    JSON.parse('{"__proto__":{"x":1},"a":2}'),
    Object.assign(Object.create(null), { b: 1, a: 2 }),
    { s: 'quote " backslash \\ newline \n lone \ud800 emoji 😀' },
    'text',
    42,
    true,
    null,
    { m: new Map([['a', 1]]), box: new String('ab') },
  ]
  for (const value of values) t.equal(canonicalJson(value), reference(value))
  t.throws(() => canonicalJson({ big: 1n }), TypeError, 'a bigint throws as JSON.stringify throws')
})

t.test('keys already in order, in reverse, or after omitted members come out the same', async (t) => {
  const values: unknown[] = [
    { a: 1, b: { c: 2, d: 3 }, e: [{ f: 4, g: 5 }] },
    { z: 1, y: { x: 2, w: 3 }, v: [{ u: 4, t: 5 }] },
    JSON.parse('{"3":1,"1":2,"a":3,"b":4}'),
    JSON.parse('{"3":1,"1":2,"b":3,"a":4}'),
    { a: undefined, b: 1, c: () => 2, d: 3 },
    { b: undefined, a: undefined },
    { b: 1, a: undefined },
    { a: 'x', A: 'y', _: 'z', '': 'e' },
  ]
  for (const value of values) t.equal(canonicalJson(value), reference(value))
  t.equal(
    canonicalJson({ a: undefined, b: 1, c: () => 2, d: 3 }),
    '{"b":1,"d":3}',
    'no comma for an omitted member',
  )
})
