import '@catalog/http-kit'
import { ForbiddenError } from '@catalog/core'
import { actionOf } from '@catalog/http-kit'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { isPublicPath } from '../bearer-auth.js'
import type { Authorizer } from './authorizer.js'
import { restReadCheck } from './read-requirements.js'
import { restCheck } from './rest-requirements.js'

export interface AuthorizeRestOptions {
  readonly authorizer: Authorizer
  /**
   * Whether reads are checked too (DataHub's `authorization.restApiAuthorization`,
   * `REST_API_AUTHORIZATION_ENABLED`, on by default): entity and aspect reads and searches.
   */
  readonly reads?: boolean
}

/**
 * Checks REST writes and operations against the policies before the route runs (a
 * `preHandler`, after the body is parsed): a refused request answers 403 with DataHub's
 * message and stores nothing. With `reads` (the default), entity reads and searches are
 * checked too (see `restReadCheck`).
 * Register after `bearerAuth`, which sets `request.actor`.
 */
export const authorizeRest = fp(
  async (app: FastifyInstance, { authorizer, reads = true }: AuthorizeRestOptions) => {
    app.addHook('preHandler', async (request) => {
      if (isPublicPath(request.url)) return
      // The route pattern, not the raw URL: find-my-way decodes `/%61spects` to `/aspects`.
      const route = request.routeOptions.url ?? ''
      const action = actionOf(request.url)
      const q = request.url.indexOf('?')
      const rawPath = q < 0 ? request.url : request.url.slice(0, q)
      // Without an actor (it cannot happen behind bearerAuth) nothing is granted.
      const actor = request.actor ?? 'urn:li:corpuser:__anonymous'
      const check =
        (reads
          ? restReadCheck(request.method, route, request.url, action, request.query, request.body, actor)
          : undefined) ??
        (request.method === 'GET' || request.method === 'HEAD'
          ? undefined
          : restCheck(request.method, route, rawPath, action, request.body, actor))
      if (check && !(await authorizer.authorize(actor, check.requirements))) {
        throw new ForbiddenError(check.message)
      }
    })
  },
  { name: 'catalog-authorize-rest' },
)
