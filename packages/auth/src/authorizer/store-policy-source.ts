import { parseUrn } from '@catalog/core'
import type { AspectStore } from '@catalog/store'
import type { PolicySource } from './authorizer.js'
import type { ActorFacts, PolicyInfo, ResourceFacts } from './policy-types.js'

const MAX_POLICIES = 10_000

type Row = Record<string, unknown>
const list = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : [])
const strings = (rows: Row[], key: string): string[] =>
  rows.map((r) => r[key]).filter((v): v is string => typeof v === 'string')
const urns = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v) => typeof v === 'string') : []

/**
 * Reads policies and memberships as DataHub stores them: `dataHubPolicyInfo` of
 * `dataHubPolicy` entities, `groupMembership` / `nativeGroupMembership` and `roleMembership`
 * of users and groups, and `ownership`, `domains` and `globalTags` of resources.
 */
export function storePolicySource(store: Pick<AspectStore, 'scan' | 'latest'>): PolicySource {
  const aspects = async (urn: string, names: string[]): Promise<Record<string, Row>> => {
    const rows = (await store.latest([urn], names)).get(urn) ?? []
    return Object.fromEntries(rows.map((r) => [r.aspect, r.value]))
  }
  return {
    async policies(): Promise<PolicyInfo[]> {
      const rows = await store.scan({
        urnLike: 'urn:li:dataHubPolicy:%',
        aspect: 'dataHubPolicyInfo',
        start: 0,
        limit: MAX_POLICIES,
      })
      return rows.map((r) => r.value as unknown as PolicyInfo)
    },
    async actor(urn: string): Promise<ActorFacts> {
      const a = await aspects(urn, ['groupMembership', 'nativeGroupMembership', 'roleMembership'])
      const groups = [...urns(a.groupMembership?.groups), ...urns(a.nativeGroupMembership?.nativeGroups)]
      const roles = urns(a.roleMembership?.roles)
      if (groups.length > 0) {
        const byGroup = await store.latest(groups, ['roleMembership'])
        for (const rows of byGroup.values()) for (const r of rows) roles.push(...urns(r.value.roles))
      }
      return { urn, groups, roles }
    },
    async resource(urn: string): Promise<ResourceFacts> {
      const a = await aspects(urn, ['ownership', 'domains', 'globalTags'])
      const owners = list(a.ownership?.owners).flatMap((o) =>
        typeof o.owner === 'string'
          ? [{ owner: o.owner, ...(typeof o.typeUrn === 'string' ? { typeUrn: o.typeUrn } : {}) }]
          : [],
      )
      return {
        type: parseUrn(urn).entityType,
        urn,
        owners,
        domains: urns(a.domains?.domains),
        tags: strings(list(a.globalTags?.tags), 'tag'),
      }
    },
  }
}
