import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { startApp } from '../helpers/spawn.js'
import { tempDir } from '../helpers/temp-dir.js'

t.test('GET /metrics: Prometheus text with per-route request metrics and the change-log lag', async (t) => {
  const dir = tempDir(t, 'catalog-metrics-')
  const app = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'on',
  })
  t.teardown(() => app.stop())
  const token = readFileSync(join(dir, 'admin.token'), 'utf8').trim()
  const search = await fetch(`${app.url}/entities?action=search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input: 'x', entity: 'dataset', start: 0, count: 1 }),
  })
  t.equal(search.status, 200)
  await (await fetch(`${app.url}/no/such/route/123`)).arrayBuffer()

  const res = await fetch(`${app.url}/metrics`)
  t.equal(res.status, 200, 'public, like /health')
  t.match(res.headers.get('content-type'), /^text\/plain/)
  const text = await res.text()
  t.match(
    text,
    /catalog_http_request_duration_seconds_count\{service="catalog",route="\/entities",action="search",method="POST",status="200"\} 1/,
    'the search, counted by route and action',
  )
  t.match(text, /route="unmatched"/, 'unknown paths share one label')
  t.notMatch(text, /no\/such\/route/, 'raw URLs never become labels')
  t.match(text, /catalog_search_changelog_lag\{service="catalog"\} 0/)
  t.match(text, /catalog_changelog_head\{service="catalog"\} \d+/)
  t.match(text, /process_resident_memory_bytes/)
  t.match(text, /nodejs_eventloop_lag_seconds/)
})
