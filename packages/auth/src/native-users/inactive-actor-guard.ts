import '@catalog/http-kit'
import { ForbiddenError, ROOT_ACTOR, SYSTEM_ACTOR } from '@catalog/core'
import type { AspectStore } from '@catalog/store'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { isPublicPath } from '../bearer-auth.js'
import { type ActorStatus, storeActorStatus } from './caching-actor-status.js'

export interface InactiveActorGuardOptions {
  /** The metadata store, read through a cache invalidated from its change log. */
  readonly store?: Pick<AspectStore, 'latest' | 'head' | 'changes'>
  /** Where the users' status comes from instead (e.g. the metadata service over HTTP). */
  readonly status?: ActorStatus
  /** Actors never refused: the system client's user. */
  readonly exempt?: readonly string[]
  /** Only these route patterns are guarded (default: every non-public route). */
  readonly routes?: readonly string[]
}

/** DataHub's message when a session is refused to an inactive actor. */
export const INACTIVE_ACTOR_MESSAGE = 'Actor is not active'

/**
 * Refuses requests of a user that is suspended (`corpUserStatus.status` SUSPENDED) or
 * soft-deleted (`status.removed`), as DataHub's `ActorContext.isActive` does for every session:
 * its tokens still verify, but nothing is served to it (403). System actors are never refused.
 * DataHub's existence enforcement (no `corpUserKey`: refused) is not applied, because tokens
 * may be issued here for actors not provisioned as users; a hard-deleted user's tokens are
 * revoked with it instead (GraphQL `removeUser`).
 */
export const inactiveActorGuard = fp(
  async (app: FastifyInstance, options: InactiveActorGuardOptions) => {
    const status = options.status ?? (options.store ? storeActorStatus(options.store) : undefined)
    if (!status) throw new Error('inactiveActorGuard: needs a store or a status source')
    const never = new Set([SYSTEM_ACTOR, ROOT_ACTOR, ...(options.exempt ?? [])])
    const routes = options.routes ? new Set(options.routes) : undefined
    // A callback hook: the system and root users, never refused, cost no promise.
    app.addHook('preHandler', (request, _reply, done) => {
      const actor = request.actor
      if (!actor || never.has(actor) || !actor.startsWith('urn:li:corpuser:')) return done()
      if (routes && !routes.has(request.routeOptions.url ?? '')) return done()
      if (isPublicPath(request.url)) return done()
      status
        .isInactive(actor)
        .then((inactive) => done(inactive ? new ForbiddenError(INACTIVE_ACTOR_MESSAGE) : undefined), done)
    })
  },
  { name: 'catalog-inactive-actor-guard' },
)
