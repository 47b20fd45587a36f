import '@catalog/http-kit'
import { ForbiddenError } from '@catalog/core'
import { actionOf } from '@catalog/http-kit'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { isPublicPath } from '../bearer-auth.js'
import type { Authorizer } from './authorizer.js'
import { restCheck } from './rest-requirements.js'

export interface AuthorizeRestOptions {
  readonly authorizer: Authorizer
}

/**
 * Checks REST writes and operations against the policies before the route runs (a
 * `preHandler`, after the body is parsed): a refused request answers 403 with DataHub's
 * message and stores nothing. Reads stay open to any authenticated caller in this step.
 * Register after `bearerAuth`, which sets `request.actor`.
 */
export const authorizeRest = fp(
  async (app: FastifyInstance, { authorizer }: AuthorizeRestOptions) => {
    app.addHook('preHandler', async (request) => {
      if (request.method === 'GET' || request.method === 'HEAD' || isPublicPath(request.url)) return
      // The route pattern, not the raw URL: find-my-way decodes `/%61spects` to `/aspects`.
      const route = request.routeOptions.url ?? ''
      const q = request.url.indexOf('?')
      const rawPath = q < 0 ? request.url : request.url.slice(0, q)
      // Without an actor (it cannot happen behind bearerAuth) nothing is granted.
      const actor = request.actor ?? 'urn:li:corpuser:__anonymous'
      const check = restCheck(request.method, route, rawPath, actionOf(request.url), request.body, actor)
      if (check && !(await authorizer.authorize(actor, check.requirements))) {
        throw new ForbiddenError(check.message)
      }
    })
  },
  { name: 'catalog-authorize-rest' },
)
