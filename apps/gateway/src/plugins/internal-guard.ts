import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

/**
 * True for `/internal` and everything under it, however the path is spelled (percent-encoded
 * letters, repeated or trailing slashes, any letter case).
 */
export function isInternalPath(url: string): boolean {
  // After the leading slashes, `/internal` starts with an `i`, either case, or an escape: any
  // other character rules it out without decoding the path.
  let first = 0
  while (url.charCodeAt(first) === 47) first++
  const c = url.charCodeAt(first)
  if (first > 0 && c !== 105 && c !== 73 && c !== 37) return false
  const q = url.indexOf('?')
  let path = q < 0 ? url : url.slice(0, q)
  try {
    path = decodeURIComponent(path)
  } catch {
    // A malformed escape cannot name a route; the router answers it.
  }
  path = path.replace(/\/{2,}/g, '/').toLowerCase()
  return path === '/internal' || path.startsWith('/internal/')
}

/**
 * The public gateway never serves `/internal/*` (the change log, search sync and index
 * figures): those routes answer 404 here as if they did not exist, in both modes. In split
 * mode the services still call each other's internal routes directly, not through the
 * gateway. Registered after bearer auth, so a request without a token is still a 401.
 */
export const internalGuard = fp(
  async (app: FastifyInstance) => {
    const hide = (_request: FastifyRequest, reply: FastifyReply) => {
      reply.callNotFound()
    }
    // Every request: its URL. Only the routes whose pattern is internal, registered after
    // this plugin, check their own requests too (whatever URL reached them), so that the
    // others do not ask fastify for their route options on every request.
    app.addHook('onRequest', (request, reply, done) => {
      if (isInternalPath(request.url)) return reply.callNotFound()
      done()
    })
    app.addHook('onRoute', (route) => {
      if (!isInternalPath(route.url)) return
      const hooks = route.onRequest
      route.onRequest = hooks === undefined ? [hide] : [...(Array.isArray(hooks) ? hooks : [hooks]), hide]
    })
  },
  { name: 'catalog-internal-guard' },
)
