import t from 'tap'
import {
  browsePathV2Node,
  browsePathV2Value,
  browseV2Groups,
  MAX_BROWSE_V2_GROUPS,
} from './browse-path-v2.js'

const D = '\u241F'

t.test('paths join their ids, each after the delimiter, as DataHub indexes browsePathV2', async (t) => {
  t.equal(browsePathV2Value(['urn:li:container:db', 'schema']), `${D}urn:li:container:db${D}schema`)
  t.equal(browsePathV2Value(['a', 'a']), `${D}a${D}a`, 'repeated ids are kept')
  t.equal(browsePathV2Value([]), undefined)
  t.equal(browsePathV2Node([]), '', 'the root')
})

t.test('groups from scanned paths: next entry, counts per document, sub-groups, order', async (t) => {
  const docs = [
    [`${D}a${D}x`],
    [`${D}a`],
    [`${D}b${D}y${D}z`],
    [`${D}b`],
    [`${D}c`],
    [],
    [`${D}a${D}x${D}deep`],
  ]
  t.same(browseV2Groups(docs, ''), {
    groups: [
      { name: 'a', count: 3, hasSubGroups: true },
      { name: 'b', count: 2, hasSubGroups: true },
      { name: 'c', count: 1, hasSubGroups: false },
    ],
    total: 6,
  })
  t.same(browseV2Groups(docs, `${D}a`), { groups: [{ name: 'x', count: 2, hasSubGroups: true }], total: 2 })
  t.same(browseV2Groups(docs, `${D}a${D}x`), {
    groups: [{ name: 'deep', count: 1, hasSubGroups: false }],
    total: 1,
  })
  t.same(browseV2Groups(docs, `${D}nope`), { groups: [], total: 0 })
  t.same(browseV2Groups([[`${D}ab${D}c`]], `${D}a`).groups, [], 'a node matches whole entries only')
  const many = Array.from({ length: MAX_BROWSE_V2_GROUPS + 5 }, (_, i) => [`${D}g${i}`])
  t.equal(browseV2Groups(many, '').groups.length, MAX_BROWSE_V2_GROUPS, 'at most DataHub’s aggregation size')
})
