import { Histogram, Registry } from 'prom-client'
import t from 'tap'
import { createServer } from './create-server.js'
import { installMetrics } from './metrics.js'
import { RequestDurations } from './request-durations.js'

const BOUNDS = [0.001, 0.01, 0.1, 1]

t.test(
  'RequestDurations: the exposition prom-client writes for a Histogram of the same observations',
  async (t) => {
    const observations: Array<[string, string, string, string, number]> = [
      ['/a/*', '', 'GET', '200', 0.0004],
      ['/a/*', '', 'GET', '200', 0.001],
      ['/a/*', '', 'GET', '200', 0.05],
      ['/b', 'search', 'POST', '200', 3],
      ['/b', 'search', 'POST', '400', 0.2],
      ['unmatched', '', 'GET', '404', 0.0002],
    ]
    const theirs = new Registry()
    theirs.setDefaultLabels({ service: 'test' })
    const histogram = new Histogram({
      name: 'x_duration_seconds',
      help: 'durations',
      labelNames: ['route', 'action', 'method', 'status'],
      buckets: BOUNDS,
      registers: [theirs],
    })
    const ours = new Registry()
    ours.setDefaultLabels({ service: 'test' })
    const durations = new RequestDurations('x_duration_seconds', 'durations', BOUNDS, ours)
    for (const [route, action, method, status, seconds] of observations) {
      histogram.labels(route, action, method, status).observe(seconds)
      durations.series({ route, action, method, status }).observe(seconds)
    }
    t.equal(await ours.metrics(), await theirs.metrics())
    t.same(await ours.getMetricsAsJSON(), await theirs.getMetricsAsJSON())
  },
)

t.test('request metrics: a 404 counts once, as unmatched; a route keeps its pattern', async (t) => {
  const app = createServer()
  const registry = installMetrics(app, 'test')
  app.get('/things/*', async () => ({ ok: true }))
  t.teardown(() => app.close())
  await app.inject({ method: 'GET', url: '/no/such/thing' })
  await app.inject({ method: 'GET', url: '/things/a%2Fb' })
  await app.inject({ method: 'GET', url: '/metrics' })
  const text = await registry.metrics()
  const counts = text
    .split('\n')
    .filter((line) => line.startsWith('catalog_http_request_duration_seconds_count'))
  t.same(counts, [
    'catalog_http_request_duration_seconds_count{service="test",route="unmatched",action="",method="GET",status="404"} 1',
    'catalog_http_request_duration_seconds_count{service="test",route="/things/*",action="",method="GET",status="200"} 1',
  ])
  t.notMatch(text, /no\/such/, 'raw URLs never become labels')
})
