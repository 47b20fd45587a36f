import { deserialize } from 'node:v8'
import t from 'tap'
import { CHUNK_ITEMS, splitLongArrays } from './json-body-chunks.js'

t.test('long top-level arrays are taken out in chunks of CHUNK_ITEMS items', async (t) => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => ({ i, text: `item ${i} ☕` }))
  const long = list(CHUNK_ITEMS * 2 + 3)
  const body = { short: list(CHUNK_ITEMS), long, name: 'x', nested: { deep: list(CHUNK_ITEMS * 3) } }
  const arrays = splitLongArrays(body)
  t.same(
    arrays.map((a) => [a.key, a.chunks.length]),
    [['long', 3]],
    'only top-level arrays longer than a chunk',
  )
  t.same(body.long, [], 'left empty in the body')
  t.equal(body.short.length, CHUNK_ITEMS, 'a short array stays')
  t.equal(body.nested.deep.length, CHUNK_ITEMS * 3, 'a nested array stays')
  const chunks = arrays[0]?.chunks ?? []
  t.same(
    chunks.map((c) => (deserialize(c) as unknown[]).length),
    [CHUNK_ITEMS, CHUNK_ITEMS, 3],
  )
  t.same(
    chunks.flatMap((c) => deserialize(c) as unknown[]),
    list(CHUNK_ITEMS * 2 + 3),
    'the items, in order',
  )
  t.ok(
    chunks.every((c) => c.byteOffset === 0 && c.byteLength === c.buffer.byteLength),
    'each chunk owns its buffer (transferable without a copy)',
  )
  t.same(splitLongArrays(list(CHUNK_ITEMS * 2)), [], 'a body that is an array is left whole')
  t.same(splitLongArrays('text'), [])
})
