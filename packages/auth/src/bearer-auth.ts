import '@catalog/http-kit'
import { ROOT_ACTOR } from '@catalog/core'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { TokenService } from './token-service.js'

/** Paths anyone may read without a token: health, readiness, metrics, `/config`, the API docs and the GraphiQL page. */
export function isPublicPath(url: string): boolean {
  const q = url.indexOf('?')
  let path = q < 0 ? url : url.slice(0, q)
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1)
  return (
    path === '/health' ||
    path === '/ready' ||
    path === '/metrics' ||
    path === '/config' ||
    path === '/restli/docs' ||
    path.startsWith('/restli/docs/') ||
    // DataHub's OpenAPI documents and swagger UI (the API they describe still needs a token).
    path === '/openapi/v3/api-docs' ||
    path.startsWith('/openapi/v3/api-docs/') ||
    path === '/openapi/swagger-ui' ||
    path.startsWith('/openapi/swagger-ui/') ||
    // The GraphiQL page and its scripts; the API it calls (/api/graphql) still needs a token.
    path === '/api/graphiql' ||
    path.startsWith('/api/graphiql/') ||
    // The web UI's page and assets (apps/web); the API it calls still needs a token.
    path === '/' ||
    path === '/login' ||
    path === '/search' ||
    path === '/browse' ||
    path === '/entity' ||
    path === '/entity/lineage' ||
    path.startsWith('/assets/')
  )
}

export interface BearerAuthOptions {
  /** False when CATALOG_AUTH=off: every request acts as the root user. */
  readonly enabled: boolean
  /** Required when enabled. */
  readonly tokens?: TokenService
}

/**
 * Requires a valid bearer token on every route except the public ones and sets
 * `request.actor` from it. A missing, malformed, expired or revoked token fails with an
 * `UnauthorizedError`, which the context's error handler turns into a 401 (the DataHub
 * error body for REST, an `UNAUTHORIZED` error for GraphQL). With auth off, the actor is
 * the root user.
 */
export const bearerAuth = fp(
  async (app: FastifyInstance, options: BearerAuthOptions) => {
    const tokens = options.tokens
    if (!options.enabled || !tokens) {
      if (options.enabled) throw new Error('bearerAuth: enabled without a TokenService')
      // A callback hook: an async one costs every request a promise and a microtask turn.
      app.addHook('onRequest', (request, _reply, done) => {
        request.actor = ROOT_ACTOR
        done()
      })
      return
    }
    // A callback hook: a token seen before is answered from the caches without a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      if (isPublicPath(request.url)) return done()
      const authorization = request.headers.authorization
      const known = tokens.authenticateCached(authorization)
      if (known) {
        request.actor = known.actor
        request.tokenType = known.claims.type
        return done()
      }
      tokens.authenticate(authorization).then((principal) => {
        request.actor = principal.actor
        request.tokenType = principal.claims.type
        done()
      }, done)
    })
  },
  { name: 'catalog-bearer-auth' },
)
