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

/** Distinct (type, entity) pairs in SQLite's order: UTF-8 bytes, as its BINARY collation compares. */
function inByteOrder(pairs: Iterable<[string, string]>) {
  const distinct = new Map<string, { type: string; entity: string }>()
  for (const [type, entity] of pairs) distinct.set(`${type}\u0000${entity}`, { type, entity })
  const bytes = (s: string) => Buffer.from(s, 'utf8')
  return [...distinct.values()].sort(
    (a, b) =>
      Buffer.compare(bytes(a.type), bytes(b.type)) || Buffer.compare(bytes(a.entity), bytes(b.entity)),
  )
}

t.test('an entity with more edges than are paged in JS: the same pages, from SQLite', async (t) => {
  const big = new Database(':memory:')
  t.teardown(() => big.close())
  big.exec(STORE_DDL)
  const add = big.prepare(
    'INSERT OR IGNORE INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)',
  )
  const hub = 'urn:li:dataPlatform:big'
  const pairs: Array<[string, string]> = []
  for (let i = 0; i < 1_300; i++) {
    const type = i % 3 === 0 ? 'Contains' : 'DownstreamOf'
    const other = `urn:li:dataset:(urn:li:dataPlatform:hive,t${(i * 7_919) % 1_000},PROD)`
    for (const aspect of i % 5 === 0 ? ['a1', 'a2'] : ['a1']) add.run(other, type, hub, aspect)
    pairs.push([type, other])
  }
  const all = inByteOrder(pairs)
  t.ok(all.length > 500, `${all.length} distinct pairs`)
  const reads = new SqliteRelationships(big)
  for (const [start, count] of [
    [0, 100],
    [450, 100],
    [all.length - 3, 10],
    [all.length + 1, 10],
  ] as const) {
    t.same(reads.page({ urn: hub, direction: 'INCOMING', types: [], start, count }), {
      total: all.length,
      relationships: all.slice(start, start + count),
    })
  }
})

t.test('characters past U+FFFF: ordered as SQLite orders them (UTF-8 bytes)', async (t) => {
  const db2 = new Database(':memory:')
  t.teardown(() => db2.close())
  db2.exec(STORE_DDL)
  const add = db2.prepare(
    'INSERT OR IGNORE INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)',
  )
  const hub = 'urn:li:tag:hub'
  // U+1F600 sorts after U+FFFD in UTF-8 (and in code points), before it in UTF-16 code units.
  const names = ['urn:li:tag:\u{1F600}', 'urn:li:tag:\uFFFD', 'urn:li:tag:a', 'urn:li:tag:\uE000']
  for (const name of names) add.run(hub, 'TaggedWith', name, 'a1')
  const want = inByteOrder(names.map((name) => ['TaggedWith', name] as [string, string]))
  t.same(
    want.map((p) => p.entity),
    ['urn:li:tag:a', 'urn:li:tag:\uE000', 'urn:li:tag:\uFFFD', 'urn:li:tag:\u{1F600}'],
  )
  const reads = new SqliteRelationships(db2)
  t.same(reads.page({ urn: hub, direction: 'OUTGOING', types: [], start: 0, count: 10 }), {
    total: 4,
    relationships: want,
  })
  t.same(reads.page({ urn: hub, direction: 'OUTGOING', types: [], start: 1, count: 2 }), {
    total: 4,
    relationships: want.slice(1, 3),
  })
})

t.test(
  'the reads of a small page bind no LIMIT: a bound limit made them cost about twice the CPU',
  async (t) => {
    const small = new Database(':memory:')
    t.teardown(() => small.close())
    small.exec(STORE_DDL)
    const prepared: string[] = []
    const prepare = small.prepare.bind(small)
    small.prepare = ((sql: string) => {
      prepared.push(sql)
      return prepare(sql)
    }) as typeof small.prepare
    const reads = new SqliteRelationships(small)
    for (const direction of ['OUTGOING', 'INCOMING', 'UNDIRECTED'] as Direction[])
      t.same(reads.page({ urn: HUB, direction, types: ['DownstreamOf'], start: 0, count: 10 }), {
        total: 0,
        relationships: [],
      })
    const rowReads = prepared.filter((sql) => !/ORDER BY|COUNT/.test(sql))
    t.equal(rowReads.length, 4, 'one row read per direction')
    for (const sql of rowReads) t.match(sql, /LIMIT 501$/, sql.replace(/\s+/g, ' '))
  },
)
