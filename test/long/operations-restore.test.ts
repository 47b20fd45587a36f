import { join } from 'node:path'
import type { Registry } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import { DocumentDeriver, RequestBuilder, SearchSchema } from '@catalog/search'
import { SqliteSearchIndex } from '@catalog/search-sqlite'
import type { MetadataStore } from '@catalog/store'
import Database from 'better-sqlite3'
import t, { type Test } from 'tap'
import { build, getJson, ingestExamples, postJson } from '../helpers/build.js'

const JDOE = 'urn:li:corpuser:jdoe'
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
const RESULT = /^\{args=RestoreIndicesArgs\((.*)\), result=RestoreIndicesResult\((.*)\)\}$/

type EdgeRow = { source: string; type: string; destination: string; aspect: string }

/** A second connection to the store's file, as an operator (or a bug) would change it. */
function sideConnection(t: Test, dir: string): Database.Database {
  const db = new Database(join(dir, 'metadata.db'))
  db.pragma('busy_timeout = 5000')
  t.teardown(() => db.close())
  return db
}

const edges = (db: Database.Database) =>
  db
    .prepare('SELECT source, type, destination, aspect FROM edges ORDER BY source, type, destination, aspect')
    .all() as EdgeRow[]

/** Parses DataHub's `{args=RestoreIndicesArgs(...), result=RestoreIndicesResult(...)}`. */
function parse(value: string): { args: Record<string, string>; result: Record<string, string> } {
  const m = RESULT.exec(value)
  if (!m) throw new Error(`not a restoreIndices result: ${value}`)
  const fields = (s: string) =>
    Object.fromEntries(
      s.split(', ').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    )
  return { args: fields(m[1] as string), result: fields(m[2] as string) }
}

const restore = async (app: CatalogServer, body: Record<string, unknown>, path = '/operations') => {
  const res = await postJson(app, `${path}?action=restoreIndices`, body)
  if (res.status !== 200) throw new Error(`restoreIndices: ${res.status} ${JSON.stringify(res.body)}`)
  return parse(res.body.value)
}

/** Every edge the latest rows produce, from the registry (what the edges table must hold). */
function derivedEdges(db: Database.Database, registry: Registry): EdgeRow[] {
  const rows = db
    .prepare('SELECT urn, aspect, metadata FROM metadata_aspect_v2 WHERE version = 0')
    .all() as Array<{
    urn: string
    aspect: string
    metadata: string
  }>
  const out: EdgeRow[] = []
  for (const r of rows) {
    const entity = registry.findEntity(r.urn.split(':')[2] ?? '')
    if (!entity) continue
    for (const e of registry.edges(entity, r.aspect, JSON.parse(r.metadata))) {
      out.push({ source: r.urn, type: e.type, destination: e.destination, aspect: r.aspect })
    }
  }
  const key = (e: EdgeRow) => `${e.source}\u0000${e.type}\u0000${e.destination}\u0000${e.aspect}`
  return [...new Map(out.map((e) => [key(e), e])).values()].sort((a, b) =>
    Buffer.compare(Buffer.from(key(a)), Buffer.from(key(b))),
  )
}

t.test('restoreIndices brings back edges deleted out of band', async (t) => {
  const { app, dir, store } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const db = sideConnection(t, dir)
  const before = edges(db)
  t.ok(before.length > 50, `${before.length} edges after ingest`)
  const owned = await getJson(
    app,
    `/relationships?direction=INCOMING&urn=${encodeURIComponent(JDOE)}&types=OwnedBy`,
  )
  t.ok(owned.body.entities.length > 0)

  // Behind the catalog's back: its read caches follow the change log, so an edit that writes
  // none is not seen over HTTP until restoreIndices (which announces every row it restores).
  db.exec('DELETE FROM edges')
  t.same(edges(db), [], 'the edges are gone')

  const latest = (
    db.prepare('SELECT COUNT(*) AS n FROM metadata_aspect_v2 WHERE version = 0').get() as { n: number }
  ).n
  const head = await store.head()
  const { args, result } = await restore(app, { limit: 0, batchSize: 50 })
  t.same(
    [args.start, args.batchSize, args.limit, args.urn, args.urnLike, args.aspectName],
    ['0', '50', '0', 'null', 'null', 'null'],
  )
  t.equal(Number(result.rowsMigrated), latest, `every latest row (${latest}) was restored`)
  t.equal(result.ignored, '0')
  t.same(edges(db), before, 'the edges table is as it was')
  const back = await getJson(
    app,
    `/relationships?direction=INCOMING&urn=${encodeURIComponent(JDOE)}&types=OwnedBy`,
  )
  t.same(back.body.entities, owned.body.entities, 'the relationships are back')

  const announced = await store.changes(head, latest + 10)
  t.equal(announced.length, latest, 'one change-log entry per restored row, for the search index')
  t.ok(announced.every((e) => e.change === 'UPSERT'))
  const props = announced.find((e) => e.urn === HIVE && e.aspect === 'datasetProperties')
  const stored = (await store.latest([HIVE], ['datasetProperties'])).get(HIVE)?.[0]
  t.same(props?.value, stored?.value, 'entries carry the stored value')
  t.equal(await store.version(HIVE, 'datasetProperties', 1), undefined, 'no new aspect version')
})

t.test('restoreIndices selects rows by urn, urnLike, aspect, start and batchSize', async (t) => {
  const { app, dir } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const db = sideConnection(t, dir)
  const keys = db
    .prepare('SELECT urn, aspect FROM metadata_aspect_v2 WHERE version = 0 ORDER BY urn, aspect')
    .all() as Array<{ urn: string; aspect: string }>
  const count = (where: string, ...params: unknown[]) =>
    (
      db
        .prepare(`SELECT COUNT(*) AS n FROM metadata_aspect_v2 WHERE version = 0 AND ${where}`)
        .get(...params) as {
        n: number
      }
    ).n

  let r = await restore(app, {})
  t.equal(r.result.rowsMigrated, '10', 'the default is one batch of 10 rows')
  t.same([r.result.lastUrn, r.result.lastAspect], [keys[9]?.urn, keys[9]?.aspect])
  const bare = await app.inject({ method: 'POST', url: '/operations?action=restoreIndices' })
  t.equal(parse(bare.json().value).result.rowsMigrated, '10', 'a bare POST (no body) uses the defaults')
  r = await restore(app, { start: 10 })
  t.same([r.result.lastUrn, r.result.lastAspect], [keys[19]?.urn, keys[19]?.aspect], 'start pages on')
  r = await restore(app, { start: 5, batchSize: 3, limit: 7 })
  t.same(
    [r.result.rowsMigrated, r.result.lastUrn, r.result.lastAspect],
    ['7', keys[11]?.urn, keys[11]?.aspect],
    'limit spans batches',
  )
  r = await restore(app, { urn: HIVE })
  t.equal(Number(r.result.rowsMigrated), count('urn = ?', HIVE), 'every aspect of the urn')
  t.equal(r.args.urn, HIVE)
  r = await restore(app, { urnLike: 'urn:li:corpuser:%', limit: 0 })
  t.equal(Number(r.result.rowsMigrated), count("urn LIKE 'urn:li:corpuser:%'"))
  r = await restore(app, { aspect: 'ownership', limit: 0, batchSize: 4 })
  t.equal(Number(r.result.rowsMigrated), count("aspect = 'ownership'"))
  r = await restore(app, { aspect: 'ownership', urnLike: 'urn:li:dataset:%', limit: 0 }, '/aspects')
  t.equal(
    Number(r.result.rowsMigrated),
    count("aspect = 'ownership' AND urn LIKE 'urn:li:dataset:%'"),
    '/aspects too',
  )
  r = await restore(app, { urnLike: 'urn:li:nothing:%', limit: 0 })
  t.equal(r.result.rowsMigrated, '0')
  r = await restore(app, { lePitEpochMs: 1, limit: 0 })
  t.equal(r.result.rowsMigrated, '0', 'rows written after lePitEpochMs are left alone')

  const bad = async (body: Record<string, unknown>, status: number, pattern: RegExp) => {
    const res = await postJson(app, '/operations?action=restoreIndices', body)
    t.equal(res.status, status)
    t.match(res.body.message, pattern)
  }
  await bad({ batchSize: 0 }, 400, /batchSize must be between 1 and 10000/)
  await bad({ start: -1 }, 400, /start must be a non-negative integer/)
  await bad({ limit: -1 }, 400, /limit must be a non-negative integer/)
  await bad({ urn: 'not-a-urn' }, 400, /Invalid urn/)
  await bad({ aspect: 'warpDrive' }, 422, /Unknown aspect warpDrive/)
})

t.test('restoreIndices is safe while ingest continues', async (t) => {
  const { app, dir, registry, store } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const db = sideConnection(t, dir)
  db.exec('DELETE FROM edges')
  const head = await store.head()
  const datasets = (
    db
      .prepare("SELECT DISTINCT urn FROM metadata_aspect_v2 WHERE urn LIKE 'urn:li:dataset:%'")
      .all() as Array<{
      urn: string
    }>
  ).map((r) => r.urn)
  const writes = datasets.flatMap((urn, i) =>
    [0, 1, 2].map((round) =>
      postJson(app, '/aspects?action=ingestProposal', {
        proposal: {
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'ownership',
          aspect: {
            value: JSON.stringify({
              owners: [{ owner: `urn:li:corpuser:owner${i}_${round}`, type: 'DATAOWNER' }],
              lastModified: { time: round, actor: 'urn:li:corpuser:datahub' },
            }),
            contentType: 'application/json',
          },
        },
      }),
    ),
  )
  const [restored, ...results] = await Promise.all([restore(app, { limit: 0, batchSize: 3 }), ...writes])
  t.ok(
    results.every((r) => r.status === 200),
    `${results.length} writes during the restore`,
  )
  t.ok(Number(restored?.result.rowsMigrated) > 0)
  // Restated entries carry no system metadata; ingested ones do.
  const log = await store.changes(head, 100_000)
  const restatedSeqs = log.filter((e) => !e.systemMetadata).map((e) => e.seq)
  const interleaved = log.filter(
    (e) => e.systemMetadata && e.seq > Math.min(...restatedSeqs) && e.seq < Math.max(...restatedSeqs),
  )
  t.ok(interleaved.length > 0, `${interleaved.length} writes committed between restore batches`)
  t.same(edges(db), derivedEdges(db, registry), 'edges match the latest values exactly')
  const last = datasets.length - 1
  const rel = await getJson(
    app,
    `/relationships?direction=INCOMING&urn=${encodeURIComponent(`urn:li:corpuser:owner${last}_2`)}&types=OwnedBy`,
  )
  t.same(rel.body.entities, [datasets[last]], 'the newest write wins')
})

t.test('wipe the search index, restoreIndices, search finds again', async (t) => {
  const { app, dir, store, registry } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const schema = new SearchSchema(registry)
  const index = new SqliteSearchIndex({ file: join(dir, 'search.db'), schema })
  t.teardown(() => index.close())
  const deriver = new DocumentDeriver(schema)
  const requests = new RequestBuilder(schema)
  // What the search service does: apply the change log from its cursor, idempotently.
  const sync = async (s: MetadataStore) => {
    for (;;) {
      const entries = await s.changes(await index.cursor(), 1000)
      const last = entries[entries.length - 1]
      if (!last) return
      await index.apply(deriver.changes(entries), last.seq)
    }
  }
  const find = async (input: string) =>
    (await index.search(requests.search({ input, entityTypes: ['dataset'], start: 0, count: 50 }))).hits.map(
      (h) => h.urn,
    )
  await sync(store)
  const hits = await find('SampleHiveDataset')
  t.ok(hits.includes(HIVE), 'found after ingest')
  const documents = (await index.stats()).documents

  await index.clear()
  t.same(await find('SampleHiveDataset'), [], 'the wiped index finds nothing')
  await sync(store)
  t.same(await find('SampleHiveDataset'), [], 'the log tail alone does not bring it back')

  await restore(app, { limit: 0, batchSize: 100 })
  await sync(store)
  t.same(await find('SampleHiveDataset'), hits, 'restoreIndices brings search back')
  t.equal((await index.stats()).documents, documents, 'every document is back')
})

t.test('a long restoreIndices logs its progress at intervals', async (t) => {
  const { store, registry } = await build(t)
  const { createMetadataServices } = await import('@catalog/metadata-service')
  const lines: Array<{ fields: Record<string, unknown>; message: string }> = []
  const services = createMetadataServices(registry, store, undefined, {
    log: { info: (fields, message) => lines.push({ fields, message }), everyMs: 0 },
  })
  const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,progress.t${n},PROD)`
  await services.ingest.ingestProposals(
    Array.from({ length: 30 }, (_, n) => ({
      entityType: 'dataset',
      entityUrn: urn(n),
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: '{"removed":false}', contentType: 'application/json' },
    })),
    'urn:li:corpuser:datahub',
  )
  await services.operations.restoreIndices(
    { aspect: 'status', batchSize: 10, limit: 0 },
    'urn:li:corpuser:datahub',
  )
  t.ok(lines.length >= 3, `${lines.length} progress lines`)
  t.match(lines.at(-1), { message: /restoreIndices: done, 30 rows restored/, fields: { rowsMigrated: 30 } })
})

t.test('a running restoreIndices is a task that getEsTaskStatus reads while it runs', async (t) => {
  const { app, store } = await build(t)
  const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,task.t${n},PROD)`
  for (let n = 0; n < 40; n++) {
    const res = await postJson(app, '/aspects?action=ingestProposal', {
      proposal: {
        entityType: 'dataset',
        entityUrn: urn(n),
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { value: '{"removed":false}', contentType: 'application/json' },
      },
    })
    if (res.status !== 200) throw new Error(`ingest: ${res.status}`)
  }
  const tasksBefore = (await store.tasksInState('completed')).length
  const bad = await postJson(app, '/operations?action=restoreIndices', { batchSize: 0 })
  t.equal(bad.status, 400, 'bad input is refused before any task exists')
  t.equal((await store.tasksInState('running')).length, 0)
  t.equal((await store.tasksInState('completed')).length, tasksBefore)

  const running = postJson(app, '/operations?action=restoreIndices', {
    aspect: 'status',
    urnLike: 'urn:li:dataset:(urn:li:dataPlatform:hive,task.%',
    batchSize: 1,
    limit: 0,
  })
  const status = async (task: string) => {
    const res = await postJson(app, '/operations?action=getEsTaskStatus', { task })
    t.equal(res.status, 200)
    return JSON.parse(res.body.value)
  }
  let id: string | undefined
  const seen: Array<{ completed: boolean; updated: number }> = []
  for (let i = 0; i < 10_000 && seen.length < 3; i++) {
    if (id === undefined) {
      const [task] = (await store.tasksInState('running')).filter((x) => x.kind === 'restoreIndices')
      if (task) id = `${task.nodeId}:${task.taskId}`
    } else {
      const s = await status(id)
      if (s.completed) break
      if (s.status.updated > (seen.at(-1)?.updated ?? 0))
        seen.push({ completed: s.completed, updated: s.status.updated })
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
  t.ok(id, `the restore runs as task ${id}`)
  t.ok(seen.length >= 2, `its progress was read while it ran: ${JSON.stringify(seen)}`)
  t.ok(
    seen.every((s) => !s.completed && s.updated < 40),
    'not completed, part of the rows restored',
  )

  const done = await running
  t.equal(done.status, 200, 'the Rest.li answer is still synchronous')
  t.equal(parse(done.body.value).result.rowsMigrated, '40')
  const viaGet = await getJson(app, `/openapi/operations/elasticSearch/getTaskStatus?task=${id}`)
  t.equal(viaGet.status, 200, "DataHub's OpenAPI GET reads the same task")
  t.equal(viaGet.body.taskId, id)
  const final = await status(id as string)
  t.equal(final.completed, true)
  t.equal(final.taskId, id)
  t.match(final.status, { total: 40, updated: 40, batches: 40, noops: 0 })
  t.notOk(final.failure)
  t.equal((await store.tasksInState('running')).length, 0, 'no task is left running')
})

t.test('the restore task id is logged as it starts', async (t) => {
  const { store, registry } = await build(t)
  const { createMetadataServices } = await import('@catalog/metadata-service')
  const lines: Array<{ fields: Record<string, unknown>; message: string }> = []
  const services = createMetadataServices(registry, store, undefined, {
    log: { info: (fields, message) => lines.push({ fields, message }) },
  })
  await services.operations.restoreIndices({ limit: 0 }, 'urn:li:corpuser:datahub')
  const started = lines.find((l) => /^restoreIndices: running as task /.test(l.message))
  t.ok(started, 'one line names the task')
  const task = started?.fields.task as string
  t.match(task, /^[a-zA-Z0-9-_]+:[0-9]+$/)
  const status = JSON.parse(await services.operations.taskStatus({ task }))
  t.match(status, { completed: true, taskId: task, status: { updated: 0, total: 0 } })
})

t.test("DataHub's OpenAPI getTaskStatus: bad ids, unknown tasks and authorization", async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken } = built
  const { post, get, tokenFor } = await import('../helpers/actors.js')
  const restored = await post(app, '/operations?action=restoreIndices', adminToken, { limit: 1 })
  t.equal(restored.status, 200)
  const [task] = await built.store.tasksInState('completed')
  const id = `${task?.nodeId}:${task?.taskId}`
  const url = (task: string) =>
    `/openapi/operations/elasticSearch/getTaskStatus?task=${encodeURIComponent(task)}`

  const found = await get(app, url(id), adminToken)
  t.equal(found.status, 200)
  t.match(found.body, { completed: true, taskId: id, status: { batches: Number } })
  const bad = await get(app, url('not-a-task'), adminToken)
  t.equal(bad.status, 400)
  t.equal(
    bad.body.message,
    'Task ID should be in the form nodeId:taskId e.g. aB1cdEf2GHI-JKLMnoPQr3:123456 (got not-a-task)',
  )
  const unknown = await get(app, url(`${task?.nodeId}:999999`), adminToken)
  t.equal(unknown.status, 404)
  t.equal(unknown.body.message, `Could not get task status for ${task?.nodeId}:999999`)
  t.equal((await get(app, url(id), undefined)).status, 401)
  const nobody = 'urn:li:corpuser:tasks-nobody'
  const refused = await get(app, url(id), await tokenFor(built, nobody))
  t.equal(refused.status, 403)
  t.equal(refused.body.message, `${nobody} is not authorized to get ElasticSearch task status`)
})
