import type { Server } from 'node:http'
import type { FastifyInstance, FastifyRequest, preParsingHookHandler } from 'fastify'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What to start when a request to the route announces a body of at least `bytes` bytes. */
    warmOnLargeBody?: readonly LargeBodyWarm[]
  }
}

/** A start to make before a body of at least `bytes` bytes is read. */
export interface LargeBodyWarm {
  readonly bytes: number
  readonly warm: () => void
}

/** Methods whose routes take a body. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Servers whose own request hook calls {@link warmForLargeBody} (those of `createServer`). */
const checked = new WeakSet<Server>()
/** The smallest size any route warms at: a smaller Content-Length looks no further. */
let smallest = Number.POSITIVE_INFINITY

/**
 * Says that `app`'s request hook calls {@link warmForLargeBody} on every request, so that routes
 * need no hook of their own: a request with a small body or none then pays one comparison.
 */
export function checksLargeBodies(app: FastifyInstance): void {
  checked.add(app.server)
}

/**
 * Calls the warm-ups of the request's route whose size its Content-Length reaches (from a
 * server's own onRequest hook; see {@link checksLargeBodies}).
 */
export function warmForLargeBody(request: FastifyRequest): void {
  const length = request.headers['content-length']
  if (length === undefined) return
  const bytes = Number(length)
  if (!(bytes >= smallest)) return
  const warms = request.routeOptions.config?.warmOnLargeBody
  if (warms) for (const w of warms) if (bytes >= w.bytes) w.warm()
}

/**
 * Calls `warm` (starting a worker thread the body will need) as soon as a request to a route
 * registered after this call announces a body of at least `bytes` bytes in its Content-Length,
 * before the body is read: the worker then starts while the body arrives, not after. Only the
 * routes of methods with a body get it, so reads pay nothing for it. On a server that checks
 * large bodies in its own request hook ({@link checksLargeBodies}), the route only lists the
 * warm-up in its config; elsewhere it gets a preParsing hook.
 */
export function warmOnLargeBody(app: FastifyInstance, bytes: number, warm: () => void): void {
  const own = checked.has(app.server)
  if (own) smallest = Math.min(smallest, bytes)
  const hook: preParsingHookHandler = (request, _reply, payload, done) => {
    const length = request.headers['content-length']
    if (length !== undefined && Number(length) >= bytes) warm()
    done(null, payload)
  }
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.some((method) => BODY_METHODS.has(method))) return
    if (own) {
      const listed = route.config?.warmOnLargeBody ?? []
      route.config = { ...route.config, warmOnLargeBody: [...listed, { bytes, warm }] }
      return
    }
    const hooks = route.preParsing
    route.preParsing = hooks === undefined ? [hook] : [...(Array.isArray(hooks) ? hooks : [hooks]), hook]
  })
}
