import type { AspectStore } from '@catalog/store'
import { changeLogFollower } from '../change-log-follower.js'
import type { PolicySource } from './authorizer.js'
import type { ActorFacts, PolicyInfo } from './policy-types.js'

/** Entity types whose writes change what the policies grant. */
const POLICY_TYPES = new Set(['dataHubPolicy', 'dataHubRole'])
/** Aspects whose writes change an actor's groups or roles. */
const MEMBERSHIP_ASPECTS = new Set(['groupMembership', 'nativeGroupMembership', 'roleMembership'])
/** Actors remembered at most (the oldest is forgotten first). */
const MAX_ACTORS = 10_000

export interface CachingPolicySource extends PolicySource {
  /** Reads the change log up to its head and drops what the new entries invalidate. */
  refresh(): Promise<void>
}

/**
 * Remembers the policies and each actor's groups and roles between checks, and reads the
 * store's change log before each use: a write of a `dataHubPolicy` or `dataHubRole` drops the
 * policies, a write of a membership aspect (or deletion of a user or group) drops the actors.
 * A change is seen by the next check after its write returned, so a policy edit or a role
 * grant takes effect at once (DataHub's own cache refreshes every 120 s). Resource facts
 * (owners, domains, tags) change with every edit and are read fresh.
 */
export function cachingPolicySource(
  source: PolicySource,
  log: Pick<AspectStore, 'changes' | 'head'>,
): CachingPolicySource {
  let policies: Promise<readonly PolicyInfo[]> | undefined
  const actors = new Map<string, Promise<ActorFacts>>()
  const refresh = changeLogFollower(
    log,
    (entry) => {
      if (POLICY_TYPES.has(entry.entityType)) {
        policies = undefined
        actors.clear()
      } else if (MEMBERSHIP_ASPECTS.has(entry.aspect) || entry.entityDeleted) {
        actors.clear()
      }
    },
    () => {
      policies = undefined
      actors.clear()
    },
  )

  const remember = <T>(promise: Promise<T>, forget: () => void): Promise<T> => {
    promise.catch(forget)
    return promise
  }

  return {
    refresh,
    async policies() {
      await refresh()
      if (!policies) {
        const loading = source.policies()
        policies = remember(loading, () => {
          if (policies === loading) policies = undefined
        })
      }
      return policies
    },
    async actor(urn) {
      await refresh()
      let facts = actors.get(urn)
      if (!facts) {
        if (actors.size >= MAX_ACTORS) actors.delete(actors.keys().next().value as string)
        const loading = source.actor(urn)
        facts = remember(loading, () => {
          if (actors.get(urn) === loading) actors.delete(urn)
        })
        actors.set(urn, facts)
      }
      return facts
    },
    resource: (urn) => source.resource(urn),
  }
}
