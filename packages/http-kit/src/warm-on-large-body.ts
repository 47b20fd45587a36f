import type { FastifyInstance, preParsingHookHandler } from 'fastify'

/** Methods whose routes take a body. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Calls `warm` (starting a worker thread the body will need) as soon as a request to a route
 * registered after this call announces a body of at least `bytes` bytes in its Content-Length,
 * before the body is read: the worker then starts while the body arrives, not after. Only the
 * routes of methods with a body get the hook, so reads pay nothing for it.
 */
export function warmOnLargeBody(app: FastifyInstance, bytes: number, warm: () => void): void {
  const hook: preParsingHookHandler = (request, _reply, payload, done) => {
    const length = request.headers['content-length']
    if (length !== undefined && Number(length) >= bytes) warm()
    done(null, payload)
  }
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.some((method) => BODY_METHODS.has(method))) return
    const hooks = route.preParsing
    route.preParsing = hooks === undefined ? [hook] : [...(Array.isArray(hooks) ? hooks : [hooks]), hook]
  })
}
