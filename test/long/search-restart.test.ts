import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import { createMetadataServices } from '@catalog/metadata-service'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import t from 'tap'
import { build, ingestExamples, postJson } from '../helpers/build.js'
import { loadExample, toIngestCall } from '../helpers/examples.js'
import { startApp } from '../helpers/spawn.js'

const proposal = (urn: string, description: string) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: { value: JSON.stringify({ description }), contentType: 'application/json' },
})

t.test('a restart keeps the index and applies only the log tail', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'search-restart-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  let cursor = 0
  let documents = 0

  await t.test('first start: ingest', async (t) => {
    const { app, search, store } = await build(t, { dir })
    await ingestExamples(app, 'bootstrap')
    // Ingest notes each write; the index applies them before the next read (or within 50 ms).
    await search.sync.fresh()
    cursor = (await search.sync.stats()).cursor
    t.equal(cursor, await store.head(), 'the index is at the head of the log')
    documents = (await search.index.stats()).documents
    t.ok(documents > 50)
  })

  // Writes made while the catalog is down (another process, or a crash before the index caught up).
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
  const metadata = createMetadataServices(new Registry(), store)
  const tail = 'urn:li:dataset:(urn:li:dataPlatform:hive,written_while_down,PROD)'
  await metadata.ingest.ingestProposals([proposal(tail, 'quokka sightings')], 'urn:li:corpuser:datahub')
  const head = await store.head()
  await store.close()
  t.ok(head > cursor)

  await t.test('second start: only the tail is applied', async (t) => {
    const { app, search } = await build(t, { dir })
    const stats = await search.sync.stats()
    t.equal(stats.applied, head - cursor, `applied ${head - cursor} entries, not the whole log`)
    t.equal(stats.cursor, head)
    t.equal((await search.index.stats()).documents, documents + 1)
    const old = await postJson(app, '/entities?action=search', {
      input: 'sample',
      entity: 'dataset',
      start: 0,
      count: 10,
    })
    t.ok(old.body.value.numEntities >= 3, 'documents indexed before the restart are still there')
    const fresh = await postJson(app, '/entities?action=search', {
      input: 'quokka',
      entity: 'dataset',
      start: 0,
      count: 10,
    })
    t.same(fresh.body.value.entities, [tail], 'the tail is searchable')
  })
})

t.test('npm start: search after ingest, and a restart replays nothing', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'search-all-in-one-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const env = { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' }
  let app = await startApp('apps/gateway/src/all-in-one.ts', env)
  t.teardown(() => app.stop())
  t.match(app.output(), /search index caught up: 0 change-log entries applied/)
  for (const record of loadExample('browse')) {
    const call = toIngestCall(record)
    const res = await fetch(app.url + call.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(call.body),
    })
    t.equal(res.status, 200)
    await res.arrayBuffer()
  }
  const search = async () => {
    const res = await fetch(`${app.url}/entities?action=search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'test-browse', entity: 'dataset', start: 0, count: 10 }),
    })
    return ((await res.json()) as { value: { numEntities: number } }).value.numEntities
  }
  t.equal(await search(), 3, 'read-your-writes')
  await app.stop()
  app = await startApp('apps/gateway/src/all-in-one.ts', env)
  t.match(app.output(), /search index caught up: 0 change-log entries applied/, 'nothing to replay')
  t.equal(await search(), 3, 'the index survived the restart')
})
