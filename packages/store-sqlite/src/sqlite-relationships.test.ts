import type { Direction } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { STORE_DDL } from './schema.js'
import { SqliteRelationships } from './sqlite-relationships.js'

/**
 * One-hop pages against a brute-force answer over the same edges: every direction, type lists
 * bound one by one and passed as JSON, pages that are full, partial, empty and past the end
 * (where the total comes from the count query or from the page itself).
 */

const TYPES = ['Consumes', 'DownstreamOf', 'OwnedBy', 'Produces', 'TaggedWith', 'Contains']
const HUB = 'urn:li:dataset:(urn:li:dataPlatform:hive,hub,PROD)'
const node = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,n${i % 7},PROD)`

const db = new Database(':memory:')
db.exec(STORE_DDL)
const insert = db.prepare(
  'INSERT OR IGNORE INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)',
)
const edges: Array<[string, string, string]> = []
for (let i = 0; i < 40; i++) {
  const type = TYPES[i % 5] as string
  const [source, destination] = i % 3 === 0 ? [node(i), HUB] : [HUB, node(i)]
  // The same edge from two aspects counts once.
  for (const aspect of i % 4 === 0 ? ['a1', 'a2'] : ['a1']) insert.run(source, type, destination, aspect)
  edges.push([source, type, destination])
}
t.teardown(() => db.close())

function expected(direction: Direction, types: readonly string[]) {
  const pairs = new Set<string>()
  for (const [source, type, destination] of edges) {
    if (types.length > 0 && !types.includes(type)) continue
    if (direction !== 'INCOMING' && source === HUB) pairs.add(`${type}\u0000${destination}`)
    if (direction !== 'OUTGOING' && destination === HUB) pairs.add(`${type}\u0000${source}`)
  }
  return [...pairs].sort().map((p) => {
    const [type, entity] = p.split('\u0000') as [string, string]
    return { type, entity }
  })
}

t.test('pages and totals match a brute-force answer', async (t) => {
  const reads = new SqliteRelationships(db)
  const typeLists = [
    [],
    ['OwnedBy'],
    ['OwnedBy', 'Consumes'],
    TYPES.slice(0, 4),
    TYPES.slice(0, 5),
    TYPES,
    ['Nope'],
  ]
  let checked = 0
  for (const direction of ['OUTGOING', 'INCOMING', 'UNDIRECTED'] as const) {
    for (const types of typeLists) {
      const all = expected(direction, types)
      for (const start of [0, 1, 3, all.length - 1, all.length, all.length + 5]) {
        for (const count of [0, 1, 2, 5, 100]) {
          if (start < 0) continue
          const page = reads.page({ urn: HUB, direction, types, start, count })
          const want = { total: all.length, relationships: all.slice(start, start + count) }
          if (JSON.stringify(page) !== JSON.stringify(want)) {
            t.same(page, want, `${direction} ${types.join('|')} start ${start} count ${count}`)
          }
          checked++
        }
      }
    }
  }
  t.ok(checked > 500, `${checked} pages checked`)
  t.ok(expected('UNDIRECTED', []).length > 5, 'the hub has edges both ways')
})

t.test('an entity without edges has none, whatever the page', async (t) => {
  const reads = new SqliteRelationships(db)
  for (const start of [0, 3]) {
    t.same(
      reads.page({ urn: 'urn:li:corpuser:nobody', direction: 'UNDIRECTED', types: [], start, count: 10 }),
      {
        total: 0,
        relationships: [],
      },
    )
  }
})
