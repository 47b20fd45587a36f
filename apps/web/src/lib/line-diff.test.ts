import t from 'tap'
import { lineDiff, stableJson } from './line-diff.js'

t.test('lineDiff keeps common lines and marks the rest', async (t) => {
  t.same(lineDiff('a\nb\nc', 'a\nx\nc'), [
    { kind: 'same', text: 'a' },
    { kind: 'removed', text: 'b' },
    { kind: 'added', text: 'x' },
    { kind: 'same', text: 'c' },
  ])
  t.same(lineDiff('', 'a'), [
    { kind: 'removed', text: '' },
    { kind: 'added', text: 'a' },
  ])
  t.ok(
    lineDiff('x\ny', 'x\ny').every((l) => l.kind === 'same'),
    'equal texts have no changes',
  )
})

t.test('stableJson sorts keys at every depth, so reorderings are no change', async (t) => {
  t.equal(
    stableJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } }),
    stableJson({ a: { c: null, d: [2, { e: 0, f: 1 }] }, b: 1 }),
  )
  t.equal(stableJson({ b: 1, a: 2 }), '{\n  "a": 2,\n  "b": 1\n}')
})
