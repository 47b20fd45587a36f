import t from 'tap'
import { InvalidInputError, ValidationError } from '../errors.js'
import { applyOperations } from './json-patch.js'
import { parsePointer } from './json-pointer.js'
import { parsePatchBody } from './parse-patch-body.js'
import { fromTree, toTree } from './tree.js'
import type { PatchOperation } from './types.js'

const run = (doc: unknown, ops: PatchOperation[]) => fromTree(applyOperations(toTree(doc), ops))

t.test('RFC 6902 operations on objects and arrays', async (t) => {
  t.same(run({ a: 1 }, [{ op: 'add', path: '/b', value: { c: [1] } }]), { a: 1, b: { c: [1] } })
  t.same(run({ a: [1, 3] }, [{ op: 'add', path: '/a/1', value: 2 }]), { a: [1, 2, 3] }, 'add inserts')
  t.same(run({ a: [1] }, [{ op: 'add', path: '/a/-', value: 2 }]), { a: [1, 2] }, '- appends')
  t.same(run({ a: 1, b: 2 }, [{ op: 'remove', path: '/a' }]), { b: 2 })
  t.same(run({ a: [1, 2, 3] }, [{ op: 'remove', path: '/a/1' }]), { a: [1, 3] })
  t.same(run({ a: [1, 2] }, [{ op: 'replace', path: '/a/0', value: 9 }]), { a: [9, 2] })
  t.same(run({ a: { x: 1 }, b: {} }, [{ op: 'move', from: '/a/x', path: '/b/y' }]), { a: {}, b: { y: 1 } })
  t.same(run({ a: { x: [1] } }, [{ op: 'copy', from: '/a', path: '/b' }]), { a: { x: [1] }, b: { x: [1] } })
  t.same(run({ a: { x: 1, y: [2] } }, [{ op: 'test', path: '/a', value: { y: [2], x: 1 } }]), {
    a: { x: 1, y: [2] },
  })
  t.same(run({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }]), { b: 2 }, 'the root can be replaced')
})

t.test('a __proto__ member is only data', async (t) => {
  const out = run({}, [{ op: 'add', path: '/__proto__', value: { polluted: true } }]) as Record<
    string,
    unknown
  >
  t.ok(Object.hasOwn(out, '__proto__'), 'an own member')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution')
})

t.test('like DataHub, missing parents are created and removing what is absent does nothing', async (t) => {
  t.same(run({}, [{ op: 'add', path: '/a/b/c', value: 1 }]), { a: { b: { c: 1 } } })
  t.same(run({ a: 1 }, [{ op: 'remove', path: '/b' }]), { a: 1 })
  t.same(run({ a: 1 }, [{ op: 'remove', path: '/b/c' }]), { a: 1, b: {} })
})

t.test('escapes: ~1 is / and ~0 is ~', async (t) => {
  t.same(parsePointer('/a~1b/c~0d/~01'), ['a/b', 'c~d', '~1'])
  t.same(run({}, [{ op: 'add', path: '/urn:li:x~1y', value: 1 }]), { 'urn:li:x/y': 1 })
  t.throws(() => parsePointer('a'), InvalidInputError)
  t.throws(() => parsePointer('/a~2'), InvalidInputError)
})

t.test('a failing operation names itself and the path', async (t) => {
  const fails = (doc: unknown, ops: PatchOperation[], message: RegExp) =>
    t.throws(() => run(doc, ops), { constructor: ValidationError, message })
  fails({ a: [] }, [{ op: 'replace', path: '/b', value: 1 }], /#0 \(replace \/b\) failed: no value at \/b/)
  fails({ a: [] }, [{ op: 'add', path: '/a/x/y', value: 1 }], /not an array index/)
  fails({ a: [1] }, [{ op: 'replace', path: '/a/5', value: 1 }], /out of bounds/)
  fails({ a: [1] }, [{ op: 'add', path: '/a/x', value: 1 }], /not an array index/)
  fails({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }], /value differs/)
  fails({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/b/c' }], /own child/)
  fails({ a: 1 }, [{ op: 'add', path: '/a/b', value: 1 }], /not an object or array/)
})

t.test('PATCH bodies: a JSON Patch array or DataHub’s object form', async (t) => {
  t.same(parsePatchBody('[{"op":"ADD","path":"/a","value":1}]'), {
    operations: [{ op: 'add', path: '/a', value: 1 }],
    forceGenericPatch: false,
  })
  t.same(
    parsePatchBody({
      patch: [{ op: 'remove', path: '/a' }],
      arrayPrimaryKeys: { owners: ['owner', 'type'] },
      forceGenericPatch: true,
    }),
    {
      operations: [{ op: 'remove', path: '/a' }],
      forceGenericPatch: true,
      arrayPrimaryKeys: { owners: ['owner', 'type'] },
    },
  )
  const bad: Array<[unknown, RegExp]> = [
    ['{', /not valid JSON/],
    [5, /must be a JSON Patch array/],
    [{ patch: [], extra: 1 }, /unknown field\(s\) "extra"/],
    [{ patch: {} }, /"patch" must be an array/],
    [[{ op: 'merge', path: '/a' }], /unsupported op "merge"/],
    [[{ op: 'add', path: '/a' }], /needs a "value"/],
    [[{ op: 'move', path: '/a' }], /needs a "from"/],
    [[{ op: 'add', path: 'a', value: 1 }], /must start with/],
    [{ patch: [], arrayPrimaryKeys: { owners: [''] } }, /non-empty field names/],
    [{ patch: [], forceGenericPatch: 'yes' }, /must be a boolean/],
  ]
  for (const [body, message] of bad)
    t.throws(() => parsePatchBody(body), { constructor: InvalidInputError, message })
})
