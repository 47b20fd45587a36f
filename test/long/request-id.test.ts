import t from 'tap'
import { build } from '../helpers/build.js'
import { startApp } from '../helpers/spawn.js'
import { tempDir } from '../helpers/temp-dir.js'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

t.test('x-request-id: taken from the caller when sane, generated otherwise, always answered', async (t) => {
  const { app } = await build(t)
  const given = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'trace-42' } })
  t.equal(given.headers['x-request-id'], 'trace-42')
  const none = await app.inject({ method: 'GET', url: '/config' })
  t.match(none.headers['x-request-id'], UUID)
  const error = await app.inject({ method: 'GET', url: '/no/such/route', headers: { 'x-request-id': 'e-1' } })
  t.equal([error.statusCode, error.headers['x-request-id']].join(' '), '404 e-1', 'errors carry it too')
  for (const bad of ['x'.repeat(129), 'has space', 'new\u0085line']) {
    const res = await app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': bad } })
    t.match(res.headers['x-request-id'], UUID, `replaced: ${JSON.stringify(bad.slice(0, 20))}`)
  }
})

t.test('split mode: the gateway forwards the id, and both services log it', async (t) => {
  const dir = tempDir(t, 'catalog-reqid-')
  const common = { CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off', CATALOG_LOG_REQUESTS: 'on' }
  const metadata = await startApp('apps/metadata-service/src/server.ts', {
    ...common,
    CATALOG_METADATA_PORT: '0',
  })
  t.teardown(() => metadata.stop())
  const gateway = await startApp('apps/gateway/src/server.ts', {
    ...common,
    PORT: '0',
    CATALOG_METADATA_URL: metadata.url,
    CATALOG_SEARCH_URL: metadata.url,
  })
  t.teardown(() => gateway.stop())
  const urn = encodeURIComponent('urn:li:corpuser:jdoe')
  const res = await fetch(`${gateway.url}/entitiesV2/${urn}`, { headers: { 'x-request-id': 'follow-me-7' } })
  await res.arrayBuffer()
  t.equal(res.headers.get('x-request-id'), 'follow-me-7')
  const generated = await fetch(`${gateway.url}/entitiesV2/${urn}`)
  await generated.arrayBuffer()
  const id = generated.headers.get('x-request-id') ?? ''
  t.match(id, UUID)
  await new Promise((r) => setTimeout(r, 200))
  for (const [name, proc] of [
    ['gateway', gateway],
    ['metadata service', metadata],
  ] as const) {
    t.match(proc.output(), /"reqId":"follow-me-7"/, `the ${name} logged the caller's id`)
    t.ok(proc.output().includes(`"reqId":"${id}"`), `the ${name} logged the generated id`)
  }
})
