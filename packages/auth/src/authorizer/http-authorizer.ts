import { type ChangeLogEntry, type Registry, UnavailableError } from '@catalog/core'
import { Authorizer } from './authorizer.js'
import { cachingPolicySource } from './caching-policy-source.js'
import type { PolicyInfo } from './policy-types.js'
import { readerPolicySource } from './store-policy-source.js'

/** Policies read per page, and pages at most (DataHub's cache fetches 1,000 at a time). */
const PAGE = 1_000
const MAX_PAGES = 10
/** URNs per batch read. */
const BATCH = 100
const TIMEOUT_MS = 10_000

type Row = Record<string, unknown>

/**
 * The authorizer of a process running apart from the metadata service (the split gateway and
 * search service): policies come from the metadata service's store-backed scroll
 * (`GET /openapi/v3/entity/dataHubPolicy`), memberships and resource facts from the batch
 * `/entitiesV2`, and invalidation from its change log (`GET /internal/changes`), all called
 * with `authorization` (a service token of the system actor, as the services call each other).
 */
export function httpAuthorizer(
  metadataUrl: string,
  registry: Registry,
  authorization: () => string,
): Authorizer {
  const get = async (path: string): Promise<unknown> => {
    const res = await fetch(`${metadataUrl}${path}`, {
      headers: { authorization: authorization(), 'x-restli-protocol-version': '2.0.0' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    if (!res.ok)
      throw new UnavailableError(`the metadata service answered ${res.status} to ${path.split('?')[0]}`)
    return res.json()
  }
  const source = readerPolicySource({
    async policies() {
      const out: PolicyInfo[] = []
      let scrollId: string | undefined
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = `count=${PAGE}&aspects=dataHubPolicyInfo&includeSoftDelete=true${scrollId ? `&scrollId=${encodeURIComponent(scrollId)}` : ''}`
        const body = (await get(`/openapi/v3/entity/dataHubPolicy?${query}`)) as {
          entities?: { dataHubPolicyInfo?: { value?: PolicyInfo } }[]
          scrollId?: string
        }
        for (const e of body.entities ?? [])
          if (e.dataHubPolicyInfo?.value) out.push(e.dataHubPolicyInfo.value)
        scrollId = body.scrollId
        if (!scrollId) break
      }
      return out
    },
    async latest(urns, aspects) {
      const out = new Map<string, Record<string, Row>>()
      for (let i = 0; i < urns.length; i += BATCH) {
        const chunk = urns.slice(i, i + BATCH)
        // Only the aspects the entity type has: the batch read refuses others.
        const entity = registry.resolveUrn(chunk[0] as string).entity
        const wanted = aspects.filter((a) => registry.hasAspect(entity, a))
        if (wanted.length === 0) continue
        const ids = chunk.map((u) => encodeURIComponent(u)).join(',')
        const body = (await get(`/entitiesV2?ids=List(${ids})&aspects=List(${wanted.join(',')})`)) as {
          results?: Record<string, { aspects?: Record<string, { value?: Row }> }>
        }
        for (const urn of chunk) {
          const values: Record<string, Row> = {}
          for (const [name, enveloped] of Object.entries(body.results?.[urn]?.aspects ?? {}))
            if (enveloped.value) values[name] = enveloped.value
          out.set(urn, values)
        }
      }
      return out
    },
  })
  const changes = async (after: number, limit: number) =>
    (await get(`/internal/changes?after=${after}&limit=${limit}`)) as {
      head: number
      entries: ChangeLogEntry[]
    }
  const log = {
    head: async () => (await changes(Number.MAX_SAFE_INTEGER, 1)).head,
    changes: async (after: number, limit: number) => (await changes(after, limit)).entries,
  }
  return new Authorizer(cachingPolicySource(source, log))
}
