import { type ChangeLogEntry, UnavailableError } from '@catalog/core'
import {
  type ActorStatus,
  cachingActorStatus,
  STATUS_ASPECTS,
  type StatusAspects,
} from './caching-actor-status.js'

const TIMEOUT_MS = 5_000

/**
 * {@link ActorStatus} of a process running apart from the metadata service (the split
 * gateway, for GraphQL): a user's `status` and `corpUserStatus` come from the batch
 * `/entitiesV2`, and invalidation from the change log (`/internal/changes`), both called with
 * `authorization` (a service token of the system actor). Each check costs one read of the log
 * head; a user's aspects are read again only after a write to them. While the metadata service
 * does not answer, checks fail (503), as every GraphQL field reading it would.
 */
export function httpActorStatus(metadataUrl: string, authorization: () => string): ActorStatus {
  const get = async (path: string): Promise<unknown> => {
    let res: Response
    try {
      res = await fetch(`${metadataUrl}${path}`, {
        headers: { authorization: authorization(), 'x-restli-protocol-version': '2.0.0' },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch (err) {
      throw new UnavailableError(`the metadata service at ${metadataUrl} did not answer`, { cause: err })
    }
    if (!res.ok) {
      await res.arrayBuffer()
      throw new UnavailableError(`the metadata service answered ${res.status} to ${path.split('?')[0]}`)
    }
    return res.json()
  }
  const read = async (actor: string): Promise<StatusAspects> => {
    const path = `/entitiesV2?ids=List(${encodeURIComponent(actor)})&aspects=List(${STATUS_ASPECTS.join(',')})`
    const body = (await get(path)) as {
      results?: Record<string, { aspects?: Record<string, { value?: Record<string, unknown> }> }>
    }
    const aspects = body.results?.[actor]?.aspects ?? {}
    return {
      ...(aspects.status?.value ? { status: aspects.status.value } : {}),
      ...(aspects.corpUserStatus?.value ? { corpUserStatus: aspects.corpUserStatus.value } : {}),
    }
  }
  const changes = async (after: number, limit: number) =>
    (await get(`/internal/changes?after=${after}&limit=${limit}`)) as {
      head: number
      entries: ChangeLogEntry[]
    }
  return cachingActorStatus(read, {
    head: async () => (await changes(Number.MAX_SAFE_INTEGER, 1)).head,
    changes: async (after, limit) => (await changes(after, limit)).entries,
  })
}
