import '@catalog/http-kit'
import { ForbiddenError } from '@catalog/core'
import { actionOf } from '@catalog/http-kit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { isPublicPath } from '../bearer-auth.js'
import { SERVICE_TOKEN_TYPE } from '../token-service.js'
import type { Authorizer } from './authorizer.js'
import { lineageDeleteCheck } from './lineage-requirements.js'
import { metadataTestCheck } from './metadata-test-requirements.js'
import { alwaysReadCheck, restReadCheck } from './read-requirements.js'
import { registryModelsCheck } from './registry-requirements.js'
import { type RestCheck, restCheck } from './rest-requirements.js'
import { runsCheck } from './runs-requirements.js'
import { taskStatusCheck } from './task-status-requirements.js'
import { traceCheck } from './trace-requirements.js'

export interface AuthorizeRestOptions {
  readonly authorizer: Authorizer
  /**
   * Whether reads are checked too (DataHub's `authorization.restApiAuthorization`,
   * `REST_API_AUTHORIZATION_ENABLED`, on by default): entity and aspect reads and searches.
   */
  readonly reads?: boolean
}

/**
 * The services' internal routes (the change log, search sync) carry every aspect value: only
 * the catalog's services (service tokens, skipped above) and the system and root users call
 * them. No privilege grants them (the authorizer allows those two actors whatever is asked).
 */
const INTERNAL: RestCheck = {
  requirements: [{ anyOf: [] }],
  message: 'Unauthorized: internal routes answer only the catalog services',
}

const BEARER = /^Bearer\s+([^.\s]+)\.([^.\s]+)\.[^.\s]+\s*$/i

/**
 * True when the caller holds a service token: only the catalog's services sign them (with the
 * shared secret), and the gateway sends its GraphQL calls with one for the acting user after
 * authorizing the operation itself, as DataHub's GraphQL resolvers call the entity service in
 * process, past the REST checks. `bearerAuth` has verified the token on this request already
 * (and noted its type, read here without decoding the token again).
 */
function isServiceCall(request: FastifyRequest): boolean {
  if (request.tokenType !== undefined) return request.tokenType === SERVICE_TOKEN_TYPE
  const match = BEARER.exec(request.headers.authorization ?? '')
  if (!match) return false
  try {
    const claims = JSON.parse(Buffer.from(match[2] as string, 'base64url').toString('utf8')) as {
      type?: unknown
    }
    return claims.type === SERVICE_TOKEN_TYPE
  } catch {
    return false
  }
}

/** Requirement lists of GET requests remembered at most (all are dropped past it). */
const MAX_REMEMBERED_READS = 10_000

/**
 * Checks REST writes and operations against the policies before the route runs (a
 * `preHandler`, after the body is parsed): a refused request answers 403 with DataHub's
 * message and stores nothing. With `reads` (the default), entity reads and searches are
 * checked too (see `restReadCheck`); a few reads DataHub checks either way (`alwaysReadCheck`).
 * What a GET asks for depends only on its actor, route and URL, so it is worked out once per
 * such triple; whether it is granted is asked of the authorizer every time (policies change).
 * Actors the authorizer grants everything skip the checks. Register after `bearerAuth`, which
 * sets `request.actor`.
 */
export const authorizeRest = fp(
  async (app: FastifyInstance, { authorizer, reads = true }: AuthorizeRestOptions) => {
    const remembered = new Map<string, RestCheck[]>()

    const checksOf = (request: FastifyRequest, actor: string): RestCheck[] => {
      const route = request.routeOptions.url ?? ''
      // The query is parsed from the URL; a body would have to be part of the key, so none is remembered.
      const read = (request.method === 'GET' || request.method === 'HEAD') && request.body === undefined
      const key = read ? `${request.method} ${actor} ${route} ${request.url}` : undefined
      const known = key === undefined ? undefined : remembered.get(key)
      if (known) return known
      const checks = requiredChecks(request, route, actor, reads)
      if (key !== undefined) {
        if (remembered.size >= MAX_REMEMBERED_READS) remembered.clear()
        remembered.set(key, checks)
      }
      return checks
    }

    // A callback hook: nothing to ask (the common case for reads by the root user) costs no promise.
    app.addHook('preHandler', (request, _reply, done) => {
      // Without an actor (it cannot happen behind bearerAuth) nothing is granted.
      const actor = request.actor ?? 'urn:li:corpuser:__anonymous'
      if (authorizer.grantsEverything(actor) || isPublicPath(request.url) || isServiceCall(request))
        return done()
      const checks = checksOf(request, actor)
      if (checks.length === 0) return done()
      allGranted(authorizer, actor, checks).then((refused) => done(refused), done)
    })
  },
  { name: 'catalog-authorize-rest' },
)

/** Every check that applies to the request, in the order they are asked. */
function requiredChecks(request: FastifyRequest, route: string, actor: string, reads: boolean): RestCheck[] {
  const action = actionOf(request.url)
  const q = request.url.indexOf('?')
  const rawPath = q < 0 ? request.url : request.url.slice(0, q)
  const checks: (RestCheck | undefined)[] = [
    (reads
      ? restReadCheck(request.method, route, request.url, action, request.query, request.body, actor)
      : undefined) ??
      (request.method === 'GET' || request.method === 'HEAD'
        ? undefined
        : restCheck(request.method, route, rawPath, action, request.body, actor)),
    alwaysReadCheck(request.method, route, request.url, actor),
    lineageDeleteCheck(request.method, route, request.query),
    taskStatusCheck(request.method, route, actor),
    registryModelsCheck(request.method, route, actor),
    runsCheck(request.method, route, action),
    traceCheck(request.method, route, request.body, actor),
    metadataTestCheck(request.method, route, action, request.body),
    route === '/internal' || route.startsWith('/internal/') ? INTERNAL : undefined,
  ]
  return checks.filter((check): check is RestCheck => check !== undefined)
}

/** The first check refused, as the 403 to answer; undefined when all are granted. */
async function allGranted(
  authorizer: Authorizer,
  actor: string,
  checks: readonly RestCheck[],
): Promise<ForbiddenError | undefined> {
  for (const check of checks) {
    if (!(await authorizer.authorize(actor, check.requirements))) return new ForbiddenError(check.message)
  }
  return undefined
}
