/**
 * Data dirs of the second layout (system metadata as JSON text and `createdby` as text in every
 * aspect row) are migrated when the store opens, in one transaction: every row reads back with
 * the same system metadata and actor through every read path, runs and rollback work on the
 * migrated rows. A migration killed mid-way: sqlite-schema-v2-kill.long-test.ts.
 */
import Database from 'better-sqlite3'
import t from 'tap'
import { STORE_SCHEMA_VERSION } from './schema.js'
import { SqliteMetadataStore } from './sqlite-store.js'
import { SqliteStoreReader } from './sqlite-store-reader.js'
import { A, ACTOR, B, sm, tempFile, v2Store } from './store-v2-rows.fixture.js'

function viewRows(file: string): unknown[] {
  const db = new Database(file, { readonly: true })
  try {
    return db.prepare('SELECT * FROM metadata_aspect_v2 ORDER BY urn, aspect, version').all()
  } finally {
    db.close()
  }
}

t.test('a second-layout store is migrated at open; every read answers as before', async (t) => {
  const file = tempFile(t)
  v2Store(file)
  const before = viewRows(file)
  const notes: string[] = []
  const store = new SqliteMetadataStore({
    file,
    durability: 'normal',
    writerThread: false,
    onMigrate: (note) => notes.push(note),
  })
  t.teardown(() => store.close())
  t.match(notes, [/^migrating the metadata store to layout 3 .*: 9 aspect rows,/], 'announced once')
  const db = new Database(file, { readonly: true })
  t.teardown(() => db.close())
  t.equal(db.pragma('user_version', { simple: true }), STORE_SCHEMA_VERSION)
  t.equal(db.pragma('freelist_count', { simple: true }), 0, 'compacted')
  t.same(
    db.prepare('SELECT COUNT(*) FROM aspect_rows WHERE sysextra LIKE \'%"runId"%\'').pluck().get(),
    0,
    'run ids are stored as ids, not text',
  )

  // The view shows DataHub's columns as before: the same text, except the hand-written row in
  // another key order, which reads in DataHub's order with the same keys and values.
  const after = viewRows(file) as Array<Record<string, unknown>>
  t.equal(after.length, before.length)
  for (const [i, row] of after.entries()) {
    const old = before[i] as Record<string, unknown>
    if (row.aspect === 'ownership') {
      t.equal(row.systemmetadata, '{"lastObserved":7,"runId":"run-3"}')
      t.same(JSON.parse(row.systemmetadata as string), JSON.parse(old.systemmetadata as string))
      t.same({ ...row, systemmetadata: '' }, { ...old, systemmetadata: '' })
    } else t.same(row, old, `${row.aspect} v${row.version} reads as before`)
  }

  const props = (await store.latest([A])).get(A)?.find((r) => r.aspect === 'datasetProperties')
  t.same(props?.systemMetadata, {
    lastObserved: 300,
    runId: 'run-2',
    lastRunId: 'run-1',
    pipelineName: 'p',
    properties: { k: 'v', n: null },
    registryName: 'r',
  })
  t.same(props?.created, { time: 3, actor: 'urn:li:corpuser:jdoe' })
  const json = (await store.latestJson([B])).get(B) ?? []
  t.same(
    json.map((r) => [r.aspect, r.systemMetadataJson, r.created.actor]),
    [
      ['container', '[1]', ACTOR],
      ['datasetKey', sm(100, 'run-1', 'no-run-id-provided'), ACTOR],
      ['globalTags', null, ACTOR],
      ['ownership', '{"lastObserved":7,"runId":"run-3"}', ACTOR],
      ['upstreamLineage', '{"pipelineName":"only"}', ACTOR],
    ],
    'the JSON read gives the stored text',
  )
  t.same((await store.version(A, 'datasetProperties', 1))?.systemMetadata, {
    lastObserved: 100,
    runId: 'run-1',
    lastRunId: 'no-run-id-provided',
  })
  t.same(
    (await store.scan({ aspect: 'ownership', start: 0, limit: 5 })).map((r) => r.systemMetadata),
    [{ lastObserved: 7, runId: 'run-3' }],
  )

  t.same(
    (await store.runs({ start: 0, count: 10, includeSoftDeleted: true })).map((r) => [
      r.runId,
      r.rows,
      r.timestamp,
    ]),
    [
      ['run-2', 1, 300],
      ['run-1', 2, 100],
      ['run-3', 1, 7],
    ],
    'runs are listed from the run ids; the default run is not',
  )
  t.same(
    (await store.runAspects('no-run-id-provided', { start: 0, count: 10, includeSoftDeleted: true })).map(
      (r) => [r.urn, r.aspect, r.timestamp],
    ),
    [[A, 'status', 200]],
    'the default run is still described',
  )

  // Rolling run-2 back restores the older value with its system metadata, in the change log too.
  const created = { time: 50, actor: 'urn:li:corpuser:admin' }
  await store.write({
    created,
    mutations: [
      {
        kind: 'rollback',
        urn: A,
        entityType: 'dataset',
        aspect: 'datasetProperties',
        runId: 'run-2',
        created,
        isKeyAspect: false,
        edgesOf: () => [],
      },
    ],
  })
  const [entry] = await store.changes(0, 10)
  t.same(entry?.systemMetadata, { lastObserved: 100, runId: 'run-1', lastRunId: 'no-run-id-provided' })
  t.same((await store.version(A, 'datasetProperties', 0))?.value, { description: 'one' })

  // A new write over a migrated row takes its lastRunId from the migrated run id.
  await store.write({
    created,
    mutations: [
      {
        kind: 'upsert',
        urn: B,
        entityType: 'dataset',
        aspect: 'ownership',
        value: { owners: [{ owner: 'urn:li:corpuser:x', type: 'DATAOWNER' }] },
        systemMetadata: { lastObserved: 60, runId: 'run-4', properties: { a: '1' } },
        created,
        edges: [],
      },
    ],
  })
  const owned = (await store.latestJson([B], ['ownership'])).get(B)?.[0]
  t.equal(
    owned?.systemMetadataJson,
    '{"lastObserved":60,"runId":"run-4","lastRunId":"run-3","properties":{"a":"1"}}',
  )
  t.same(owned?.created, created)
  t.same((await store.changes(1, 10))[0]?.systemMetadata, JSON.parse(owned?.systemMetadataJson ?? 'null'))

  const reader = new SqliteStoreReader(file)
  t.same(
    reader.snapshot((s) => [...s.latestAspects()].map((r) => [r.urn, r.aspect])).length,
    8,
    'the offline reader reads the migrated file',
  )
  reader.close()
})

t.test('rows written through the view after the migration keep their system metadata', async (t) => {
  const file = tempFile(t)
  v2Store(file)
  const store = new SqliteMetadataStore({ file, durability: 'normal', writerThread: false })
  t.teardown(() => store.close())
  const db = new Database(file)
  t.teardown(() => db.close())
  const text = sm(9, 'run-view', 'run-1', { pipelineName: 'v' })
  db.prepare('INSERT INTO metadata_aspect_v2 VALUES (?, ?, 0, ?, ?, 9, ?)').run(
    A,
    'browsePaths',
    '{}',
    text,
    'u',
  )
  t.equal((await store.latestJson([A], ['browsePaths'])).get(A)?.[0]?.systemMetadataJson, text)
  db.prepare(
    'UPDATE metadata_aspect_v2 SET systemmetadata = \'{"runId":"x"}\' WHERE aspect = \'browsePaths\'',
  ).run()
  t.same((await store.latest([A], ['browsePaths'])).get(A)?.[0]?.systemMetadata, { runId: 'x' })
  t.same(
    (await store.runAspects('x', { start: 0, count: 5, includeSoftDeleted: true })).map((r) => r.aspect),
    ['browsePaths'],
  )
})
