import type { AspectStore } from '@catalog/store'
import { type ChangeLogReader, changeLogFollower } from '../change-log-follower.js'
import { CORP_USER_STATUS_ASPECT } from './credential-records.js'

/** Whether a user may be served: false when suspended or soft-deleted. */
export interface ActorStatus {
  /** True when `actor` is suspended (`corpUserStatus` SUSPENDED) or soft-deleted (`status.removed`). */
  isInactive(actor: string): Promise<boolean>
}

/** The two aspects that decide it, as stored (absent: undefined). */
export interface StatusAspects {
  readonly status?: Readonly<Record<string, unknown>>
  readonly corpUserStatus?: Readonly<Record<string, unknown>>
}

/** Reads a user's status aspects. */
export type StatusReader = (actor: string) => Promise<StatusAspects>

/** The aspects whose writes change whether a user is active. */
export const STATUS_ASPECTS = ['status', CORP_USER_STATUS_ASPECT] as const
const WATCHED = new Set<string>(STATUS_ASPECTS)
/** Users remembered at most (the oldest is forgotten first). */
const MAX_ACTORS = 10_000

/** DataHub's `ActorContext.isActive`, inverted: suspended or soft-deleted. */
export function inactiveFrom(aspects: StatusAspects): boolean {
  return aspects.status?.removed === true || aspects.corpUserStatus?.status === 'SUSPENDED'
}

/**
 * Remembers each user's active state between requests and reads the change log before each
 * check: a write of a user's `status` or `corpUserStatus` (or the deletion of the user) drops
 * that user, so a suspension is seen by the next request after its write returned, without a
 * read of the user's aspects per request (one read of the log head instead). Catch-ups run one
 * at a time and are shared by the requests waiting for one.
 */
export function cachingActorStatus(read: StatusReader, log: ChangeLogReader): ActorStatus {
  const known = new Map<string, Promise<boolean>>()
  const refresh = changeLogFollower(
    log,
    (entry) => {
      if (entry.entityType === 'corpuser' && (WATCHED.has(entry.aspect) || entry.entityDeleted))
        known.delete(entry.urn)
    },
    () => known.clear(),
  )

  return {
    async isInactive(actor) {
      await refresh()
      let state = known.get(actor)
      if (!state) {
        if (known.size >= MAX_ACTORS) known.delete(known.keys().next().value as string)
        const loading = read(actor).then(inactiveFrom)
        loading.catch(() => {
          if (known.get(actor) === loading) known.delete(actor)
        })
        known.set(actor, loading)
        state = loading
      }
      return state
    },
  }
}

/** {@link cachingActorStatus} over the metadata store: its aspects and its change log. */
export function storeActorStatus(store: Pick<AspectStore, 'latest' | 'head' | 'changes'>): ActorStatus {
  return cachingActorStatus(async (actor) => {
    const rows = (await store.latest([actor], [...STATUS_ASPECTS])).get(actor) ?? []
    const out: Record<string, Readonly<Record<string, unknown>>> = {}
    for (const row of rows) out[row.aspect] = row.value as Readonly<Record<string, unknown>>
    return out
  }, store)
}
