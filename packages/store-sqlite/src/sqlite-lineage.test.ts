/**
 * The lineage walk over URN ids: what it remembers between walks is dropped by any write (from
 * another connection or its own), and a level cut by the node budget keeps the entities met
 * first in (near URN, type, far id) order, so the same query answers the same.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { LineageQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { SqliteLineage } from './sqlite-lineage.js'
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
