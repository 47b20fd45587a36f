/**
 * The lineage walk over URN ids: what it remembers between walks is dropped by any write (from
 * another connection or its own), and a level cut by the node budget keeps the entities met
 * first in (near URN, type, far id) order, so the same query answers the same; past the last
 * hop only an entity the walk would reach says MAX_HOPS; one step reads both ways an UPSTREAM
 * (or DOWNSTREAM) walk needs; an edge type left out while the store held no entity its far end
 * may be is read again after a write.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LineageQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { SqliteLineage } from './sqlite-lineage.js'
import { LineageMemo, MEMO_SLOTS, MEMO_URN_BYTES } from './sqlite-lineage-memo.js'
import { openStoreSchema } from './sqlite-schema.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`

const q = (over: Partial<LineageQuery> & Pick<LineageQuery, 'urn'>): LineageQuery => ({
  direction: 'DOWNSTREAM',
  maxHops: 5,
  start: 0,
  count: 100,
  maxNodes: 1000,
  timeBudgetMs: 10_000,
  includeSoftDeleted: false,
  edges: [
    { type: 'DownstreamOf', isUpstream: true, sourceTypes: ['dataset'], destinationTypes: ['dataset'] },
  ],
  ...over,
})

/** A store file with `source DownstreamOf destination` edges, and a statement setting an entity's status. */
function storeFile(t: Test, edges: Array<[string, string]>) {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-lineage-'))
  const file = join(dir, 'metadata.db')
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  openStoreSchema(db)
  const insert = db.prepare(
    "INSERT INTO edges (source, type, destination, aspect) VALUES (?, 'DownstreamOf', ?, 'upstreamLineage')",
  )
  for (const [source, destination] of edges) insert.run(source, destination)
  t.teardown(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  return { db, file }
}

const status = (db: Database.Database, urn: string, removed: boolean) =>
  db
    .prepare(
      `INSERT OR REPLACE INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby)
       VALUES ((SELECT id FROM urns WHERE urn = ?), 'status', 0, ?, 0, 'urn:li:corpuser:t')`,
    )
    .run(urn, JSON.stringify({ removed }))

const entities = async (walk: SqliteLineage, over: Partial<LineageQuery> & Pick<LineageQuery, 'urn'>) =>
  (await walk.lineage(q(over))).results.map((r) => r.entity)

t.test('a soft-delete committed by another connection counts at the next walk', async (t) => {
  const { db, file } = storeFile(t, [
    [ds('b'), ds('a')],
    [ds('c'), ds('b')],
  ])
  const reader = new Database(file, { readonly: true })
  t.teardown(() => reader.close())
  const walk = new SqliteLineage(reader)
  t.same(await entities(walk, { urn: ds('a') }), [ds('b'), ds('c')])
  status(db, ds('b'), true)
  t.same(await entities(walk, { urn: ds('a') }), [], 'b is skipped and not traversed')
  t.same(await entities(walk, { urn: ds('a'), includeSoftDeleted: true }), [ds('b'), ds('c')])
  status(db, ds('b'), false)
  t.same(await entities(walk, { urn: ds('a') }), [ds('b'), ds('c')], 'restored')
})

t.test("a write on the walk's own connection counts at the next walk", async (t) => {
  const { db } = storeFile(t, [
    [ds('b'), ds('a')],
    [ds('c'), ds('b')],
  ])
  const walk = new SqliteLineage(db)
  t.same(await entities(walk, { urn: ds('a') }), [ds('b'), ds('c')])
  status(db, ds('c'), true)
  t.same(await entities(walk, { urn: ds('a') }), [ds('b')])
  db.prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)').run(
    ds('d'),
    'DownstreamOf',
    ds('b'),
    'upstreamLineage',
  )
  t.same(await entities(walk, { urn: ds('a') }), [ds('b'), ds('d')])
})

t.test('a URN the store never held has no lineage', async (t) => {
  const { db } = storeFile(t, [[ds('b'), ds('a')]])
  const page = await new SqliteLineage(db).lineage(q({ urn: ds('nowhere') }))
  t.same(page, { total: 0, results: [], isPartial: false })
})

t.test('the node budget keeps the entities met first, in far-id order under one parent', async (t) => {
  // Children written in reverse URN order: their ids run against their URNs.
  const { db } = storeFile(
    t,
    ['c5', 'c4', 'c3', 'c2', 'c1'].map((c): [string, string] => [ds(c), ds('root')]),
  )
  const walk = new SqliteLineage(db)
  const cut = await walk.lineage(q({ urn: ds('root'), maxNodes: 2 }))
  // The level stops at 3 entities (one more than the budget, to know it is cut): c5, c4, c3 by
  // id; the first 2 by URN are kept.
  t.same(
    cut.results.map((r) => r.entity),
    [ds('c3'), ds('c4')],
  )
  t.same([cut.total, cut.isPartial, cut.partialReason], [2, true, 'NODE_BUDGET'])
  t.same(await walk.lineage(q({ urn: ds('root'), maxNodes: 2 })), cut, 'the same again')
})

t.test('past the last hop, only an entity the walk would reach says MAX_HOPS', async (t) => {
  // a <- b <- c (DOWNSTREAM from a: b at 1 hop, c at 2), and b -> a back: a cycle to the start.
  const { db } = storeFile(t, [
    [ds('b'), ds('a')],
    [ds('c'), ds('b')],
    [ds('a'), ds('b')],
  ])
  const walk = new SqliteLineage(db)
  const one = await walk.lineage(q({ urn: ds('a'), maxHops: 1 }))
  t.same([one.total, one.isPartial, one.partialReason], [1, true, 'MAX_HOPS'], 'c lies beyond')
  status(db, ds('c'), true)
  t.same(
    await walk.lineage(q({ urn: ds('a'), maxHops: 1 })),
    {
      total: 1,
      results: [{ entity: ds('b'), type: 'DownstreamOf', degree: 1, path: [ds('a'), ds('b')] }],
      isPartial: false,
    },
    'a soft-deleted entity beyond is not more lineage, nor is the start met again',
  )
  const all = await walk.lineage(q({ urn: ds('a'), maxHops: 1, includeSoftDeleted: true }))
  t.same(
    [all.total, all.isPartial, all.partialReason],
    [1, true, 'MAX_HOPS'],
    'unless soft-deleted entities count',
  )
  const two = await walk.lineage(q({ urn: ds('a'), maxHops: 2, includeSoftDeleted: true }))
  t.same([two.total, two.isPartial], [2, false], 'nothing beyond c')
})

t.test('an UPSTREAM walk reads both ways in one step: upstreams and the jobs that produce', async (t) => {
  const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)'
  const { db } = storeFile(t, [[ds('a'), ds('up')]])
  db.prepare(
    "INSERT INTO edges (source, type, destination, aspect) VALUES (?, 'Produces', ?, 'dataJobInputOutput')",
  ).run(job, ds('a'))
  const edges: LineageQuery['edges'] = [
    { type: 'DownstreamOf', isUpstream: true, sourceTypes: ['dataset'], destinationTypes: ['dataset'] },
    { type: 'Produces', isUpstream: false, sourceTypes: ['dataJob'], destinationTypes: ['dataset'] },
  ]
  const up = await new SqliteLineage(db).lineage(q({ urn: ds('a'), direction: 'UPSTREAM', edges }))
  t.same(
    up.results.map((r) => [r.entity, r.type, r.degree]),
    [
      [job, 'Produces', 1],
      [ds('up'), 'DownstreamOf', 1],
    ],
  )
  const down = await new SqliteLineage(db).lineage(q({ urn: ds('up'), direction: 'DOWNSTREAM', edges }))
  t.same(
    down.results.map((r) => r.entity),
    [ds('a')],
    'DOWNSTREAM from up: a, and not the job that produces a (upstream of it)',
  )
})

t.test('an edge type to an entity type the store held none of is read once one is written', async (t) => {
  const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)'
  const { db, file } = storeFile(t, [[ds('a'), ds('up')]])
  const reader = new Database(file, { readonly: true })
  t.teardown(() => reader.close())
  const edges: LineageQuery['edges'] = [
    { type: 'DownstreamOf', isUpstream: true, sourceTypes: ['dataset'], destinationTypes: ['dataset'] },
    { type: 'Produces', isUpstream: false, sourceTypes: ['dataJob'], destinationTypes: ['dataset'] },
  ]
  const walk = new SqliteLineage(reader)
  const upstream = async () =>
    (await walk.lineage(q({ urn: ds('a'), direction: 'UPSTREAM', edges }))).results.map((r) => r.entity)
  t.same(await upstream(), [ds('up')], 'no job yet')
  db.prepare(
    "INSERT INTO edges (source, type, destination, aspect) VALUES (?, 'Produces', ?, 'dataJobInputOutput')",
  ).run(job, ds('a'))
  t.same(
    await upstream(),
    [job, ds('up')],
    'the first job, written by another connection, counts at the next walk',
  )
})

t.test('entities whose ids share a slot of the memo are each known for what they are', async (t) => {
  // b and c (ids 7 and 7 + MEMO_SLOTS) share a slot; c is soft-deleted. Met in the same block of
  // rows, learning c must not make b unknown, nor b's state c's.
  const { db, file } = storeFile(t, [])
  const ids = db.prepare('INSERT INTO urns (id, urn) VALUES (?, ?)')
  ids.run(1, ds('a'))
  ids.run(7, ds('b'))
  ids.run(7 + MEMO_SLOTS, ds('c'))
  ids.run(7 + 2 * MEMO_SLOTS, ds('d'))
  const edge = db.prepare(
    "INSERT INTO edges (source, type, destination, aspect) VALUES (?, 'DownstreamOf', ?, 'upstreamLineage')",
  )
  for (const child of ['b', 'c', 'd']) edge.run(ds(child), ds('a'))
  status(db, ds('c'), true)
  const reader = new Database(file, { readonly: true })
  t.teardown(() => reader.close())
  const walk = new SqliteLineage(reader)
  for (const round of ['first walk', 'again, from what the memo kept'])
    t.same(await entities(walk, { urn: ds('a') }), [ds('b'), ds('d')], round)
  t.same(
    await entities(walk, { urn: ds('a'), includeSoftDeleted: true }),
    [ds('b'), ds('c'), ds('d')],
    'with soft-deleted entities',
  )
  // A walk from c (in the memo's slot now, or not) reaches a through its edge.
  t.same(await entities(walk, { urn: ds('c'), direction: 'UPSTREAM' }), [ds('a')])
})

t.test('the memo remembers at most its slots, and forgets all at a change of the store', async (t) => {
  const { db } = storeFile(t, [[ds('b'), ds('a')]])
  const memo = new LineageMemo(db)
  memo.sync(ds('a'))
  memo.learn(3, ds('x'), true)
  t.same([memo.urn(3), memo.isRemoved(3)], [ds('x'), true])
  memo.learn(3 + MEMO_SLOTS, ds('y'), false)
  t.same([memo.urn(3), memo.isRemoved(3)], [undefined, false], 'replaced by the entity of the same slot')
  t.same([memo.urn(3 + MEMO_SLOTS), memo.isRemoved(3 + MEMO_SLOTS)], [ds('y'), false])
  t.same(memo.sync(ds('a')).changed, false)
  t.equal(memo.urn(3 + MEMO_SLOTS), ds('y'), 'kept while the store does not change')
  status(db, ds('b'), true)
  t.same(memo.sync(ds('a')).changed, true)
  t.equal(memo.urn(3 + MEMO_SLOTS), undefined, 'forgotten after a write')
})

t.test('the memo keeps URNs of any characters, and leaves out those longer than a slot', async (t) => {
  const { db } = storeFile(t, [[ds('b'), ds('a')]])
  const memo = new LineageMemo(db)
  memo.sync(ds('a'))
  const unicode = ds('données_été_\u{1F600}')
  memo.learn(5, unicode, false)
  t.equal(memo.urn(5), unicode)
  memo.learn(6, '', false)
  t.same([memo.knows(6), memo.urn(6)], [true, ''], 'no such entity is known too')
  const long = ds('x'.repeat(MEMO_URN_BYTES))
  memo.learn(7, long, true)
  t.same([memo.knows(7), memo.urn(7), memo.isRemoved(7)], [false, undefined, false], 'too long: read again')
  memo.learn(5, ds('\u00e9'.repeat(MEMO_URN_BYTES / 2)), false)
  t.equal(memo.knows(5), false, 'a URN that no longer fits forgets the one it replaced')
})

t.test('a status whose text is not JSON neither fails a walk nor hides its entity', async (t) => {
  const { db, file } = storeFile(t, [
    [ds('b'), ds('a')],
    [ds('c'), ds('b')],
  ])
  // Only an operator's write through the tables can store such text; the store never does.
  db.prepare(
    `INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby)
     VALUES ((SELECT id FROM urns WHERE urn = ?), 'status', 0, '{"removed": tru', 0, 1)`,
  ).run(ds('b'))
  const walk = new SqliteLineage(db)
  t.same(await entities(walk, { urn: ds('a') }), [ds('b'), ds('c')])
  t.same(await entities(walk, { urn: ds('a'), maxHops: 1 }), [ds('b')], 'the probe past the last hop too')
  // The file opens again with that row in it (the soft-deleted index is built over it).
  const again = new Database(file)
  t.teardown(() => again.close())
  t.doesNotThrow(() => openStoreSchema(again))
})
