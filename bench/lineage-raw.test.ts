/**
 * The scale benchmark's raw lineage baseline answers what the endpoint's walk answers: the same
 * entities, degrees, last-hop types and shortest paths (ties to the least parent URN), soft-deleted
 * entities neither returned nor traversed, UPSTREAM reading upstreams and the jobs that produce,
 * cycles never returning the start.
 * `npx tap bench/lineage-raw.test.ts`
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import type { LineageDirection } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { lineageEdgeSpecs } from '../apps/metadata-service/src/services/lineage-service.js'
import { SqliteLineage } from '../packages/store-sqlite/src/sqlite-lineage.js'
import { openStoreSchema } from '../packages/store-sqlite/src/sqlite-schema.js'
import { rawLineage } from './lineage-raw.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load)'

t.test('the raw traversal gives the walk’s answer', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'lineage-raw-'))
  const db = new Database(join(dir, 'metadata.db'))
  t.teardown(() => {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  })
  openStoreSchema(db)
  const edge = db.prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)')
  // a <- b <- d, a <- c <- d (two shortest paths to d: via b wins), d <- e <- a (a cycle back to
  // the start), c <- x (x soft-deleted) <- y, and a job producing b.
  for (const [source, destination] of [
    ['b', 'a'],
    ['c', 'a'],
    ['d', 'b'],
    ['d', 'c'],
    ['e', 'd'],
    ['a', 'e'],
    ['x', 'c'],
    ['y', 'x'],
  ])
    edge.run(ds(source as string), 'DownstreamOf', ds(destination as string), 'upstreamLineage')
  edge.run(JOB, 'Produces', ds('b'), 'dataJobInputOutput')
  db.prepare(
    `INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby)
     VALUES ((SELECT id FROM urns WHERE urn = ?), 'status', 0, '{"removed":true}', 0, 'urn:li:corpuser:t')`,
  ).run(ds('x'))

  const edges = lineageEdgeSpecs(new Registry())
  const raw = rawLineage(db, edges)
  const walk = new SqliteLineage(db)
  const cases: Array<[string, LineageDirection, number]> = [
    [ds('a'), 'DOWNSTREAM', 1],
    [ds('a'), 'DOWNSTREAM', 3],
    [ds('a'), 'DOWNSTREAM', 5],
    [ds('y'), 'UPSTREAM', 5],
    [ds('d'), 'UPSTREAM', 2],
    [ds('e'), 'UPSTREAM', 4],
  ]
  for (const [urn, direction, maxHops] of cases) {
    const mine = raw(urn, direction === 'UPSTREAM', maxHops, 100)
    const page = await walk.lineage({
      urn,
      direction,
      maxHops,
      start: 0,
      count: 100,
      maxNodes: 10_000,
      timeBudgetMs: 2_000,
      includeSoftDeleted: false,
      edges,
    })
    t.same(mine, { total: page.total, results: page.results }, `${direction} ${maxHops} from ${urn}`)
  }
  const down = raw(ds('a'), false, 5, 100)
  t.same(
    down.results.map((r) => [r.entity, r.degree, r.path.length]),
    [
      [ds('b'), 1, 2],
      [ds('c'), 1, 2],
      [ds('d'), 2, 3],
      [ds('e'), 3, 4],
    ],
    'x is skipped, y behind it unreached, a never returned',
  )
  t.same(down.results[2]?.path, [ds('a'), ds('b'), ds('d')], 'the tie goes to the least parent URN')
  t.same(
    raw(ds('b'), true, 1, 100).results.map((r) => [r.entity, r.type]),
    [
      [JOB, 'Produces'],
      [ds('a'), 'DownstreamOf'],
    ],
    'UPSTREAM reads the job that produces b',
  )
})
