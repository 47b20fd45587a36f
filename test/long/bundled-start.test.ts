import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { ROOT, startBundled } from '../helpers/spawn.js'
import { schemaMetadata } from '../helpers/wide-schema.js'

/**
 * `npm start` runs the apps from their esbuild bundles in dist/ (scripts/start.mjs). The bundle
 * inlines the workspace's packages, so what the sources find beside themselves (the model, the
 * GraphQL schema, the web UI) and the worker threads they start must still be found: this
 * starts the bundled catalog and uses each.
 */

const bundler = (await import(join(ROOT, 'scripts', 'bundle.mjs'))) as {
  isStale: (file?: string) => boolean
}

t.test('the bundled all-in-one catalog stores, searches, answers GraphQL and serves the UI', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bundled-'))
  const app = await startBundled('all-in-one', { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off' })
  t.teardown(async () => {
    await app.stop()
    rmSync(dir, { recursive: true, force: true })
  })
  t.notMatch(app.output(), /running them through tsx/, 'it ran from the bundle')
  const post = (path: string, body: unknown) =>
    fetch(app.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,bundled.orders,PROD)'
  const ingest = await post('/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { contentType: 'application/json', value: JSON.stringify({ description: 'bundled orders' }) },
    },
  })
  t.equal(ingest.status, 200, 'a write is stored (the model is found from the bundle)')
  const read = await fetch(`${app.url}/entitiesV2/${encodeURIComponent(urn)}`)
  t.match(await read.json(), { aspects: { datasetProperties: { value: { description: 'bundled orders' } } } })
  const search = await post('/entities?action=search', {
    input: 'orders',
    entity: 'dataset',
    start: 0,
    count: 10,
  })
  t.match(await search.json(), { value: { numEntities: 1 } }, 'found by the search worker, bundled too')
  const graphql = await post('/api/graphql', {
    query: `{ dataset(urn: "${urn}") { urn properties { description } } }`,
  })
  t.same(await graphql.json(), { data: { dataset: { urn, properties: { description: 'bundled orders' } } } })
  // A schema of 3,000 fields (about 700 KB): validated on the large-aspect thread and committed
  // by the writer thread, both started from their own bundles.
  const fields = Array.from({ length: 3000 }, (_, i) => ({
    fieldPath: `column_${i}`,
    nativeDataType: 'string',
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    description: `the description of column ${i}, long enough to make the aspect large`.repeat(2),
    globalTags: { tags: [{ tag: `urn:li:tag:t${i}` }] },
  }))
  const schema = schemaMetadata(fields)
  const wide = await post('/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'schemaMetadata',
      aspect: { contentType: 'application/json', value: JSON.stringify(schema) },
    },
  })
  t.equal(wide.status, 200, 'a large write is stored through the worker threads')
  const schemaRead = await fetch(
    `${app.url}/aspects/${encodeURIComponent(urn)}?aspect=schemaMetadata&version=0`,
  )
  const stored = (await schemaRead.json()) as { aspect: Record<string, { fields: unknown[] }> }
  t.equal(Object.values(stored.aspect)[0]?.fields.length, 3000, 'and reads back whole')
  const tagged = await fetch(
    `${app.url}/relationships?direction=INCOMING&urn=${encodeURIComponent('urn:li:tag:t2999')}&types=List(SchemaFieldTaggedWith)`,
  )
  t.match(await tagged.json(), { total: 1 }, 'with the edges the thread derived')
  const ui = await fetch(`${app.url}/`)
  t.equal(ui.status, 200, 'the web UI is served')
  t.match(ui.headers.get('content-type'), /text\/html/)
  const docs = await fetch(`${app.url}/restli/docs/json`)
  t.equal(docs.status, 200, 'the REST docs are served')
})

t.test('an unknown app is refused with the list of apps', async (t) => {
  const { spawnSync } = await import('node:child_process')
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), 'nope'], { encoding: 'utf8' })
  t.equal(run.status, 2)
  t.match(run.stderr, 'unknown app "nope"; one of all-in-one, gateway, metadata-service, search-service')
})

t.test('the bundle is rebuilt when a source is newer, missing, or it was built elsewhere', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-bundle-record-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const record = (value: unknown) => {
    const file = join(dir, `${Math.random()}.json`)
    writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value))
    return file
  }
  const future = Date.now() + 3_600_000
  t.notOk(bundler.isStale(record({ root: ROOT, inputs: ['package.json'], builtAt: future })), 'fresh')
  t.ok(bundler.isStale(record({ root: ROOT, inputs: ['package.json'], builtAt: 0 })), 'a source is newer')
  t.ok(
    bundler.isStale(record({ root: ROOT, inputs: ['no/such/source.ts'], builtAt: future })),
    'a source is gone',
  )
  t.ok(
    bundler.isStale(record({ root: '/elsewhere', inputs: [], builtAt: future })),
    'built in another checkout',
  )
  t.ok(bundler.isStale(record('{ torn')), 'an unreadable record')
  t.ok(bundler.isStale(join(dir, 'absent.json')), 'no record')
})
