import {
  Authorizer,
  cachingPolicySource,
  type PolicyInfo,
  readerPolicySource,
  type TokenService,
} from '@catalog/auth'
import { type ChangeLogEntry, type Registry, UnavailableError } from '@catalog/core'
import { HttpMetadataClient } from './clients/http-client.js'

/** Policies read per page, and pages at most (DataHub's cache fetches 1,000 at a time). */
const PAGE = 1_000
const MAX_PAGES = 10
const TIMEOUT_MS = 10_000

/**
 * The authorizer of a gateway running apart from the metadata service (split mode), for
 * GraphQL: policies come from the metadata service's store-backed scroll
 * (`GET /openapi/v3/entity/dataHubPolicy`), memberships and resource facts from
 * `/entitiesV2`, and invalidation from its change log (`GET /internal/changes`), all called
 * with a service token of the system actor, as the catalog's services call each other.
 */
export function remoteAuthorizer(metadataUrl: string, registry: Registry, tokens: TokenService): Authorizer {
  const authorization = () => `Bearer ${tokens.serviceToken()}`
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
      const client = new HttpMetadataClient(metadataUrl, registry, authorization())
      const read = await client.getEntities(urns, aspects)
      return new Map([...read].map(([urn, entity]) => [urn, { ...entity.aspects }]))
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
