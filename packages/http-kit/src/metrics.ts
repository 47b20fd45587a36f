import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'
import { actionOf } from './action-constraint.js'
import type { CatalogServer } from './create-server.js'

export type { Registry as MetricsRegistry } from 'prom-client'

const MAX_BOUND = 2_000

/**
 * Prometheus metrics at `GET /metrics` (text exposition format, public like `/health`): the
 * process's own (CPU, memory, event-loop lag, GC), and per route and Rest.li action the request
 * rate and latency (`catalog_http_request_duration_seconds`, a histogram, so `_count` is the
 * request counter). Apps add their own gauges to the returned registry. Call before `listen`.
 */
export function installMetrics(app: CatalogServer, service: string): Registry {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  collectDefaultMetrics({ register: registry })
  const duration = new Histogram({
    name: 'catalog_http_request_duration_seconds',
    help: 'HTTP requests by route, Rest.li action, method and status: latency in seconds',
    labelNames: ['route', 'action', 'method', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  })
  // One bound child per label set, made on its first request: no label object per request.
  const bound = new Map<string, Histogram.Internal<string>>()
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched'
    if (route === '/metrics') return done()
    const action = request.url.includes('action=') ? (actionOf(request.url) ?? '') : ''
    const key = `${route} ${action} ${request.method} ${reply.statusCode}`
    let child = bound.get(key)
    if (!child) {
      child = duration.labels(route, action, request.method, String(reply.statusCode))
      // Actions come from the URL: past a sane number of label sets, they are not remembered.
      if (bound.size < MAX_BOUND) bound.set(key, child)
    }
    child.observe(reply.elapsedTime / 1000)
    done()
  })
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType)
    return registry.metrics()
  })
  return registry
}

/** A gauge read when scraped. */
export function gauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => Promise<number> | number,
): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      this.set(await read())
    },
  })
}

/** A counter the app increments. */
export function counter(registry: Registry, name: string, help: string): Counter {
  return new Counter({ name, help, registers: [registry] })
}
