import type { FastifyReply, FastifyRequest } from 'fastify'
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client'
import { actionOf } from './action-constraint.js'
import type { CatalogServer } from './create-server.js'
import { type DurationSeries, RequestDurations } from './request-durations.js'

export type { Registry as MetricsRegistry } from 'prom-client'

/** Label sets a route remembers (past it, each request looks its series up by its labels). */
const MAX_BOUND = 2_000

type ResponseHook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void

/**
 * Prometheus metrics at `GET /metrics` (text exposition format, public like `/health`): the
 * process's own (CPU, memory, event-loop lag, GC), and per route and Rest.li action the request
 * rate and latency (`catalog_http_request_duration_seconds`, a histogram, so `_count` is the
 * request counter). Apps add their own gauges to the returned registry. Call before `listen`,
 * and before any route is added: each route gets its own observer, which knows its pattern
 * without asking fastify for the route's options on every request.
 */
export function installMetrics(app: CatalogServer, service: string): Registry {
  const registry = new Registry()
  registry.setDefaultLabels({ service })
  collectDefaultMetrics({ register: registry })
  const durations = new RequestDurations(
    'catalog_http_request_duration_seconds',
    'HTTP requests by route, Rest.li action, method and status: latency in seconds',
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registry,
  )
  app.addHook('onRoute', (route) => {
    if (route.url === '/metrics') return
    const hooks = route.onResponse
    // A route with the action constraint answers only its action: nothing to read from the URL.
    const action = (route.constraints as { action?: unknown } | undefined)?.action
    const observe = observer(durations, route.url, typeof action === 'string' ? action : undefined)
    route.onResponse =
      hooks === undefined ? [observe] : [...(Array.isArray(hooks) ? hooks : [hooks]), observe]
  })
  // Requests no route matched (404s) share one label.
  const unmatched = observer(durations, 'unmatched')
  app.addHook('onResponse', (request, reply, done) => {
    if (!request.is404) return done()
    unmatched(request, reply, done)
  })
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType)
    return registry.metrics()
  })
  return registry
}

/**
 * The onResponse hook of one route: its series by action, method and status, found without
 * building labels. The series of the route's last request is tried first: a route mostly answers
 * the same action, method and status, and then nothing is allocated or hashed.
 */
function observer(durations: RequestDurations, route: string, fixedAction?: string): ResponseHook {
  const bound = new Map<string, DurationSeries>()
  let last: { action: string; method: string; status: number; series: DurationSeries } | undefined
  return (request, reply, done) => {
    const url = request.url
    const action = fixedAction ?? (url.includes('action=') ? (actionOf(url) ?? '') : '')
    const method = request.method
    const status = reply.statusCode
    let series: DurationSeries | undefined
    if (last !== undefined && last.status === status && last.method === method && last.action === action) {
      series = last.series
    } else {
      const key = `${action} ${method} ${status}`
      series = bound.get(key)
      if (!series) {
        series = durations.series({ route, action, method, status: String(status) })
        // Actions come from the URL: past a sane number of label sets, they are not remembered here.
        if (bound.size < MAX_BOUND) bound.set(key, series)
      }
      last = { action, method, status, series }
    }
    series.observe(reply.elapsedTime / 1000)
    done()
  }
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
