/**
 * Data dirs of the first layout (URN text in every row) are migrated when the store opens: every
 * row, version, edge and run is kept and read as before, writes go on, and offline readers read
 * the file before and after.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EdgeScanQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { STORE_SCHEMA_VERSION } from './schema.js'
import { SqliteBulkImport } from './sqlite-bulk-import.js'
import { SqliteMetadataStore } from './sqlite-store.js'
import { SqliteStoreReader } from './sqlite-store-reader.js'
import { STORE_V1_DDL } from './store-v1-ddl.fixture.js'

const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)'
const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)'
const C = 'urn:li:chart:(looker,c)'
const SM = (runId: string) => JSON.stringify({ lastObserved: 5, runId, lastRunId: 'no-run-id-provided' })
const ALL_EDGES: EdgeScanQuery = {
  types: [],
  sourceTypes: [],
  destinationTypes: [],
  sourceUrns: [],
  destinationUrns: [],
  count: 10,
  includeSoftDeleted: false,
}

/** A store file written with the first layout's DDL and statements. */
function v1Store(file: string): void {
  const db = new Database(file)
  db.exec(STORE_V1_DDL)
  const row = db.prepare('INSERT INTO metadata_aspect_v2 VALUES (?, ?, ?, ?, ?, ?, ?)')
  row.run(A, 'datasetKey', 0, '{"name":"a"}', SM('run-1'), 1, 'urn:li:corpuser:x')
  row.run(A, 'upstreamLineage', 0, '{"upstreams":[2]}', SM('run-2'), 3, 'urn:li:corpuser:x')
  row.run(A, 'upstreamLineage', 1, '{"upstreams":[1]}', SM('run-1'), 1, 'urn:li:corpuser:x')
  row.run(B, 'datasetKey', 0, '{"name":"b"}', SM('run-1'), 1, 'urn:li:corpuser:x')
  row.run(B, 'status', 0, '{"removed":false}', null, 1, 'urn:li:corpuser:x')
  const edge = db.prepare('INSERT INTO edges VALUES (?, ?, ?, ?)')
  edge.run(A, 'DownstreamOf', B, 'upstreamLineage')
  edge.run(C, 'Consumes', A, 'chartInfo')
  edge.run(C, 'Consumes', A, 'inputFields')
  db.prepare(
    "INSERT INTO change_log (urn, entity_type, aspect, change, value, created_on, created_by) VALUES (?, 'dataset', 'datasetKey', 'UPSERT', '{}', 1, 'urn:li:corpuser:x')",
  ).run(A)
  db.close()
}

function tempFile(t: { teardown: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-schema-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return join(dir, 'metadata.db')
}

t.test('opening a first-layout store migrates it; every read answers as before', async (t) => {
  const file = tempFile(t)
  v1Store(file)
  const before = new SqliteStoreReader(file)
  const rowsBefore = before.snapshot((s) => [...s.latestAspects()])
  const edgesBefore = before.snapshot((s) => s.edgeCount())
  before.close()
  t.equal(rowsBefore.length, 4, 'an offline reader reads the unmigrated file')

  const notes: string[] = []
  const store = new SqliteMetadataStore({
    file,
    durability: 'normal',
    writerThread: false,
    onMigrate: (note) => notes.push(note),
  })
  t.teardown(() => store.close())
  t.equal(notes.length, 1, 'the migration is announced once')
  // 5 rows: the 4 latest aspects and one older version.
  t.match(notes[0], /migrating the metadata store to layout 3 .*: 5 aspect rows,/)
  const db = new Database(file, { readonly: true })
  t.teardown(() => db.close())
  t.equal(db.pragma('user_version', { simple: true }), STORE_SCHEMA_VERSION, 'the file records its layout')
  t.equal(
    db.pragma('freelist_count', { simple: true }),
    0,
    "the old tables' pages went back to the file system",
  )
  const tables = db.prepare(
    "SELECT name, type FROM sqlite_master WHERE name IN ('metadata_aspect_v2', 'edges')",
  )
  t.same(
    (tables.all() as Array<{ name: string; type: string }>).map((r) => r.type),
    ['view', 'view'],
    'the old tables are gone; their names are views',
  )
  t.same(
    (await store.latest([A])).get(A)?.map((a) => [a.aspect, a.version, a.value]),
    [
      ['datasetKey', 0, { name: 'a' }],
      ['upstreamLineage', 0, { upstreams: [2] }],
    ],
  )
  t.same((await store.version(A, 'upstreamLineage', 1))?.value, { upstreams: [1] }, 'history is kept')
  t.equal((await store.version(A, 'upstreamLineage', 0))?.systemMetadata?.runId, 'run-2')
  t.ok(await store.exists(B, 'datasetKey'))
  t.same(await store.relationships({ urn: A, direction: 'OUTGOING', types: [], start: 0, count: 10 }), {
    total: 1,
    relationships: [{ type: 'DownstreamOf', entity: B }],
  })
  t.same(
    await store.relationships({ urn: A, direction: 'INCOMING', types: ['Consumes'], start: 0, count: 10 }),
    {
      total: 1,
      relationships: [{ type: 'Consumes', entity: C }],
    },
  )
  t.same((await store.scanEdges(ALL_EDGES)).edges, [
    { source: C, destination: A, type: 'Consumes' },
    { source: A, destination: B, type: 'DownstreamOf' },
  ])
  t.same(
    (await store.runs({ start: 0, count: 10, includeSoftDeleted: true })).map((r) => [r.runId, r.rows]),
    [
      ['run-1', 2],
      ['run-2', 1],
    ],
  )
  t.same(
    (await store.runAspects('run-1', { start: 0, count: 10, includeSoftDeleted: true })).map((r) => r.urn),
    [A, B],
  )
  t.equal(await store.head(), 1, 'the change log is kept')

  const after = new SqliteStoreReader(file)
  t.same(
    after.snapshot((s) => [...s.latestAspects()]),
    rowsBefore,
    'the offline reader reads the same rows from the migrated file',
  )
  t.equal(
    after.snapshot((s) => s.edgeCount()),
    edgesBefore,
  )
  t.same(
    after.snapshot((s) => s.edgesOf(C, 'chartInfo')),
    [{ source: C, type: 'Consumes', destination: A, aspect: 'chartInfo' }],
  )
  after.close()
})

t.test('a migrated store takes writes and reopens without migrating again', async (t) => {
  const file = tempFile(t)
  v1Store(file)
  const store = new SqliteMetadataStore({ file, durability: 'normal', writerThread: false })
  const created = { time: 9, actor: 'urn:li:corpuser:y' }
  await store.write({
    created,
    mutations: [
      {
        kind: 'upsert',
        urn: B,
        entityType: 'dataset',
        aspect: 'upstreamLineage',
        value: { upstreams: [] },
        created,
        edges: [{ type: 'DownstreamOf', destination: C }],
      },
      { kind: 'delete', urn: A, entityType: 'dataset', aspect: 'datasetKey', isKeyAspect: true, created },
    ],
  })
  await store.close()
  const quiet: string[] = []
  const again = new SqliteMetadataStore({
    file,
    durability: 'normal',
    writerThread: false,
    onMigrate: (note) => quiet.push(note),
  })
  t.teardown(() => again.close())
  t.same(quiet, [], 'a migrated file opens without a migration')
  t.same((await again.latest([A])).get(A), [], 'the deleted entity has no rows')
  t.same((await again.scanEdges(ALL_EDGES)).edges, [{ source: B, destination: C, type: 'DownstreamOf' }])
  t.same(await again.relationships({ urn: C, direction: 'INCOMING', types: [], start: 0, count: 10 }), {
    total: 1,
    relationships: [{ type: 'DownstreamOf', entity: B }],
  })
})

t.test('the bulk import migrates a first-layout store as it opens it', async (t) => {
  const file = tempFile(t)
  v1Store(file)
  const bulk = new SqliteBulkImport(file)
  t.equal(bulk.aspectRows(), 5)
  bulk.finish()
  const db = new Database(file, { readonly: true })
  t.teardown(() => db.close())
  t.equal(db.pragma('user_version', { simple: true }), STORE_SCHEMA_VERSION)
  t.equal((db.prepare('SELECT COUNT(*) AS n FROM edges').get() as { n: number }).n, 3)
})

t.test('a store file of a newer layout is refused, untouched', async (t) => {
  const file = tempFile(t)
  const db = new Database(file)
  db.pragma(`user_version = ${STORE_SCHEMA_VERSION + 1}`)
  db.close()
  t.throws(() => new SqliteMetadataStore({ file, durability: 'normal', writerThread: false }), {
    name: 'UnavailableError',
    message: /layout version 4/,
  })
  const check = new Database(file, { readonly: true })
  t.teardown(() => check.close())
  t.equal(check.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'urns'").pluck().get(), 0)
})

t.test('the views take writes for operators and tools, by URN', async (t) => {
  const file = tempFile(t)
  const store = new SqliteMetadataStore({ file, durability: 'normal', writerThread: false })
  t.teardown(() => store.close())
  const db = new Database(file)
  t.teardown(() => db.close())
  db.prepare('INSERT INTO metadata_aspect_v2 VALUES (?, ?, 0, ?, NULL, 1, ?)').run(A, 'datasetKey', '{}', 'u')
  db.prepare('INSERT INTO edges VALUES (?, ?, ?, ?)').run(A, 'DownstreamOf', B, 'upstreamLineage')
  db.prepare('UPDATE metadata_aspect_v2 SET metadata = \'{"name":"z"}\' WHERE urn = ?').run(A)
  t.same((await store.latest([A])).get(A)?.[0]?.value, { name: 'z' })
  t.equal(
    (await store.relationships({ urn: B, direction: 'INCOMING', types: [], start: 0, count: 5 })).total,
    1,
  )
  db.prepare('DELETE FROM edges WHERE source = ?').run(A)
  db.prepare('DELETE FROM metadata_aspect_v2 WHERE urn = ?').run(A)
  t.equal(
    (await store.relationships({ urn: B, direction: 'INCOMING', types: [], start: 0, count: 5 })).total,
    0,
  )
  t.notOk(await store.exists(A, 'datasetKey'))
})

t.test('a store of this layout without the soft-deleted index gets it at the next open', async (t) => {
  const file = tempFile(t)
  const store = new SqliteMetadataStore({ file, durability: 'normal', writerThread: false })
  const created = { time: 1, actor: 'urn:li:corpuser:x' }
  const status = (urn: string, removed: boolean) =>
    ({
      kind: 'upsert',
      urn,
      entityType: 'dataset',
      aspect: 'status',
      value: { removed },
      created,
      edges: [],
    }) as const
  await store.write({ created, mutations: [status(A, true), status(B, false)] })
  await store.close()
  // As a build before the index left the file.
  const raw = new Database(file)
  raw.exec('DROP INDEX aspect_rows_removed')
  raw.close()
  const again = new SqliteMetadataStore({ file, durability: 'normal', writerThread: false })
  await again.close()
  const db = new Database(file, { readonly: true })
  t.teardown(() => db.close())
  t.same(
    db
      .prepare(
        "SELECT u.urn FROM aspect_rows a INDEXED BY aspect_rows_removed JOIN urns u ON u.id = a.eid WHERE a.aspect = 'status' AND a.version = 0 AND CASE WHEN json_valid(a.metadata) THEN json_extract(a.metadata, '$.removed') END = 1",
      )
      .pluck()
      .all(),
    [A],
    'the index holds the soft-deleted entity only',
  )
})
