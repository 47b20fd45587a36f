import '@catalog/http-kit'
import { ForbiddenError, ROOT_ACTOR, SYSTEM_ACTOR } from '@catalog/core'
import type { AspectStore } from '@catalog/store'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { isPublicPath } from '../bearer-auth.js'
import { CORP_USER_STATUS_ASPECT } from './credential-records.js'

export interface InactiveActorGuardOptions {
  readonly store: Pick<AspectStore, 'latest'>
  /** Actors never refused: the system client's user. */
  readonly exempt?: readonly string[]
}

/** DataHub's message when a session is refused to an inactive actor. */
export const INACTIVE_ACTOR_MESSAGE = 'Actor is not active'

/**
 * Refuses requests of a user that is suspended (`corpUserStatus.status` SUSPENDED) or
 * soft-deleted (`status.removed`), as DataHub's `ActorContext.isActive` does for every session:
 * its tokens still verify, but nothing is served to it (403). System actors are never refused.
 * DataHub's existence enforcement (no `corpUserKey`: refused) is not applied, because tokens
 * may be issued here for actors not provisioned as users.
 */
export const inactiveActorGuard = fp(
  async (app: FastifyInstance, { store, exempt = [] }: InactiveActorGuardOptions) => {
    const never = new Set([SYSTEM_ACTOR, ROOT_ACTOR, ...exempt])
    app.addHook('preHandler', async (request) => {
      const actor = request.actor
      if (!actor || never.has(actor) || !actor.startsWith('urn:li:corpuser:')) return
      if (isPublicPath(request.url)) return
      const rows = (await store.latest([actor], ['status', CORP_USER_STATUS_ASPECT])).get(actor) ?? []
      const inactive = rows.some(
        (row) =>
          (row.aspect === 'status' && (row.value as { removed?: unknown }).removed === true) ||
          (row.aspect === CORP_USER_STATUS_ASPECT &&
            (row.value as { status?: unknown }).status === 'SUSPENDED'),
      )
      if (inactive) throw new ForbiddenError(INACTIVE_ACTOR_MESSAGE)
    })
  },
  { name: 'catalog-inactive-actor-guard' },
)
