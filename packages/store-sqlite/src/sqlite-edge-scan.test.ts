/**
 * The edge scan on a data dir written before `edges_scroll` existed: opening it builds the
 * index, keeps every edge and scans in index order.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { STORE_DDL } from './schema.js'
import { SqliteMetadataStore } from './sqlite-store.js'

t.test('an older data dir gains the scroll index at open, its edges intact', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-edge-scan-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'metadata.db')
  const old = new Database(file)
  old.exec(STORE_DDL.replace(/CREATE INDEX IF NOT EXISTS edges_scroll[^;]*;/, ''))
  const indexes = (db: Database.Database) =>
    (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'edges'")
        .all() as Array<{
        name: string
      }>
    ).map((r) => r.name)
  t.notOk(indexes(old).includes('edges_scroll'), 'the old layout has no scroll index')
  const insert = old.prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)')
  insert.run('urn:li:dataset:b', 'DownstreamOf', 'urn:li:dataset:a', 'upstreamLineage')
  insert.run('urn:li:chart:c', 'Consumes', 'urn:li:dataset:b', 'chartInfo')
  old.close()

  const store = new SqliteMetadataStore({ file, durability: 'normal' })
  const page = await store.scanEdges({
    types: [],
    sourceTypes: [],
    destinationTypes: [],
    sourceUrns: [],
    destinationUrns: [],
    count: 10,
    includeSoftDeleted: false,
  })
  await store.close()
  t.same(page.edges, [
    { source: 'urn:li:chart:c', destination: 'urn:li:dataset:b', type: 'Consumes' },
    { source: 'urn:li:dataset:b', destination: 'urn:li:dataset:a', type: 'DownstreamOf' },
  ])
  const reopened = new Database(file, { readonly: true })
  t.ok(indexes(reopened).includes('edges_scroll'), 'opening built the index')
  const plan = reopened
    .prepare(
      'EXPLAIN QUERY PLAN SELECT DISTINCT source, destination, type FROM edges ORDER BY source, destination, type',
    )
    .all() as Array<{ detail: string }>
  t.match(plan.map((p) => p.detail).join('\n'), /edges_scroll/, 'the scan reads the index, no sort')
  reopened.close()
})
