import t from 'tap'
import { fromTree, toTree } from './tree.js'

t.test('a tree copies back to the same JSON, odd member names as data', async (t) => {
  const text =
    '{"b":1,"2":"two","a":{"__proto__":{"polluted":true},"constructor":{"prototype":1},"toString":"s"},"list":[{"hasOwnProperty":null}]}'
  const back = fromTree(toTree(JSON.parse(text))) as Record<string, Record<string, unknown>>
  t.equal(JSON.stringify(back), JSON.stringify(JSON.parse(text)), 'the same text, members in the same order')
  t.ok(Object.hasOwn(back.a as object, '__proto__'), '__proto__ is an own member')
  t.equal(Object.getPrototypeOf(back.a), Object.prototype, 'and not the prototype')
  t.equal(({} as { polluted?: boolean }).polluted, undefined, 'no prototype was touched')
  t.equal(back.a?.toString, 's', 'a member named like an Object method is data')
})
