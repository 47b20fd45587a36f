import t from 'tap'
import { takeLargeStrings, takeLargeTexts } from './json-body-texts.js'

const big = (n: number) => ({ fields: Array.from({ length: n }, (_, i) => ({ fieldPath: `c${i}` })) })
const paths = [['entities', '*', 'value', '*', 'aspects', '*', '*']]

t.test('large values at the paths are taken out as their JSON text', async (t) => {
  const large = big(100)
  const body: {
    entities: Array<{ value: { Snap: { urn: string; aspects: Array<Record<string, unknown>> } } }>
  } = {
    entities: [
      { value: { Snap: { urn: 'u1', aspects: [{ A: { x: 1 } }, { B: large }] } } },
      { value: { Snap: { urn: 'u2', aspects: [{ C: big(100) }, { D: 'a long string'.repeat(200) }] } } },
    ],
  }
  const minChars = JSON.stringify(large).length
  const taken = takeLargeTexts(body, { paths, minChars })
  t.same(
    taken.map((x) => x.path),
    [
      ['entities', 0, 'value', 'Snap', 'aspects', 1, 'B'],
      ['entities', 1, 'value', 'Snap', 'aspects', 0, 'C'],
    ],
  )
  t.equal(taken[0]?.text, JSON.stringify(large), 'the text JSON.stringify gives')
  t.same(body.entities[0]?.value.Snap.aspects, [{ A: { x: 1 } }, { B: null }], 'replaced by null')
  t.equal(typeof body.entities[1]?.value.Snap.aspects[1]?.D, 'string', 'a string is left as it is')
})

t.test('values shorter than minChars, or not at a path, stay', async (t) => {
  const body = { entities: [{ value: { Snap: { aspects: [{ B: big(10) }] } } }], other: big(1000) }
  const before = JSON.stringify(body)
  t.same(takeLargeTexts(body, { paths, minChars: before.length }), [])
  t.same(takeLargeTexts(body, { paths: [['entities', '0', 'missing', '*']], minChars: 1 }), [])
  t.same(takeLargeTexts({ entities: 'not a list' }, { paths, minChars: 1 }), [])
  t.equal(JSON.stringify(body), before, 'nothing changed')
  const exact = takeLargeTexts(body, {
    paths: [['entities', '0', 'value', 'Snap', 'aspects', '0', 'B']],
    minChars: 1,
  })
  t.same(
    exact.map((x) => x.path),
    [['entities', 0, 'value', 'Snap', 'aspects', 0, 'B']],
    'an index in a path',
  )
})

t.test('large strings at the paths are taken out as they are', async (t) => {
  const long = `{"fields":[${'"c",'.repeat(100)}"c"]}`
  const body = {
    proposals: [
      { aspect: { value: long } },
      { aspect: { value: '{}' } },
      { aspect: { value: { nested: long } } },
      { aspect: { other: long } },
    ],
  }
  const taken = takeLargeStrings(body, {
    paths: [['proposals', '*', 'aspect', 'value']],
    minChars: long.length,
  })
  t.same(taken, [{ path: ['proposals', 0, 'aspect', 'value'], text: long }])
  t.same(
    body.proposals.map((p) => p.aspect),
    [{ value: null }, { value: '{}' }, { value: { nested: long } }, { other: long }],
    'replaced by null; short strings, objects and other members left as they are',
  )
})
