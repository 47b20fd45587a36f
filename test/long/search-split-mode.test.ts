import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { loadExample, toIngestCall } from '../helpers/examples.js'
import { startApp } from '../helpers/spawn.js'

const json = { 'content-type': 'application/json' }

t.test('split mode: metadata and search services apart, the gateway routes to each', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'search-split-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const common = { CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' }
  const metadata = await startApp('apps/metadata-service/src/server.ts', {
    ...common,
    CATALOG_METADATA_PORT: '0',
  })
  t.teardown(() => metadata.stop())
  const search = await startApp('apps/search-service/src/server.ts', {
    ...common,
    CATALOG_SEARCH_PORT: '0',
    CATALOG_METADATA_URL: metadata.url,
  })
  t.teardown(() => search.stop())
  const gateway = await startApp('apps/gateway/src/server.ts', {
    ...common,
    PORT: '0',
    CATALOG_METADATA_URL: metadata.url,
    CATALOG_SEARCH_URL: search.url,
  })
  t.teardown(() => gateway.stop())

  const post = async (base: string, path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers: json, body: JSON.stringify(body) })
    const text = await res.text()
    return { status: res.status, body: text ? JSON.parse(text) : undefined }
  }

  for (const record of loadExample('browse')) {
    const call = toIngestCall(record)
    t.equal((await post(gateway.url, call.url, call.body)).status, 200, `ingest ${call.urn}`)
  }
  const started = Date.now()
  let found = 0
  while (Date.now() - started < 1000) {
    const res = await post(gateway.url, '/entities?action=search', {
      input: 'test-browse',
      entity: 'dataset',
      start: 0,
      count: 10,
    })
    found = res.body.value.numEntities
    if (found === 3) break
    await new Promise((r) => setTimeout(r, 25))
  }
  t.equal(found, 3, `search through the gateway sees the ingest within a second (${Date.now() - started} ms)`)

  const browse = await post(gateway.url, '/entities?action=browse', {
    path: '/prod',
    entity: 'dataset',
    start: 0,
    limit: 10,
  })
  const direct = await post(search.url, '/entities?action=browse', {
    path: '/prod',
    entity: 'dataset',
    start: 0,
    limit: 10,
  })
  t.same(browse, direct, 'the gateway answers what the search service answers')
  t.same(browse.body.value.groups, [
    { name: 'kafka1', count: 3 },
    { name: 'kafka2', count: 2 },
  ])

  const urn = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-browse-2,PROD)'
  const removed = await post(gateway.url, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: '{"removed":true}', contentType: 'application/json' },
    },
  })
  t.equal(removed.status, 200)
  t.equal((await post(gateway.url, '/internal/search/sync', {})).status, 404, 'not served by the gateway')
  const synced = await post(search.url, '/internal/search/sync', {})
  t.equal(synced.status, 200, 'a synchronous index update on request, from the search service itself')
  const after = await post(gateway.url, '/entities?action=search', {
    input: 'test-browse',
    entity: 'dataset',
    start: 0,
    count: 10,
  })
  t.notOk(after.body.value.entities.includes(urn), 'the soft delete is applied')

  const bad = await post(gateway.url, '/entities?action=search', {
    input: '*',
    entity: 'nope',
    start: 0,
    count: 1,
  })
  t.equal(bad.status, 400)
  t.match(bad.body, { status: 400, exceptionClass: 'com.linkedin.restli.server.RestLiServiceException' })
})
