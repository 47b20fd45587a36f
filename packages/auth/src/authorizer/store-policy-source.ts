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

/** What a policy source reads: every policy, and the latest named aspects of entities of one type. */
export interface PolicyReader {
  /** Every stored policy (`dataHubPolicyInfo`). */
  policies(): Promise<PolicyInfo[]>
  /** The latest values of `aspects` of `urns` (all of one entity type), by URN then aspect name. */
  latest(urns: readonly string[], aspects: readonly string[]): Promise<Map<string, Record<string, Row>>>
}

/**
 * Policies and memberships as DataHub stores them: `dataHubPolicyInfo` of `dataHubPolicy`
 * entities, `groupMembership` / `nativeGroupMembership` and `roleMembership` of users and
 * groups, and `ownership`, `domains` and `globalTags` of resources, read through `reader`.
 */
export function readerPolicySource(reader: PolicyReader): PolicySource {
  const aspects = async (urn: string, names: string[]): Promise<Record<string, Row>> =>
    (await reader.latest([urn], names)).get(urn) ?? {}
  return {
    policies: () => reader.policies(),
    async actor(urn: string): Promise<ActorFacts> {
      const a = await aspects(urn, ['groupMembership', 'nativeGroupMembership', 'roleMembership'])
      const groups = [...urns(a.groupMembership?.groups), ...urns(a.nativeGroupMembership?.nativeGroups)]
      const roles = urns(a.roleMembership?.roles)
      if (groups.length > 0) {
        const byGroup = await reader.latest(groups, ['roleMembership'])
        for (const values of byGroup.values()) roles.push(...urns(values.roleMembership?.roles))
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

/** {@link readerPolicySource} over the metadata store of this process. */
export function storePolicySource(store: Pick<AspectStore, 'scan' | 'latest'>): PolicySource {
  return readerPolicySource({
    async policies() {
      const rows = await store.scan({
        urnLike: 'urn:li:dataHubPolicy:%',
        aspect: 'dataHubPolicyInfo',
        start: 0,
        limit: MAX_POLICIES,
      })
      return rows.map((r) => r.value as unknown as PolicyInfo)
    },
    async latest(urnList, names) {
      const rows = await store.latest(urnList, names)
      return new Map(
        [...rows].map(([urn, values]) => [urn, Object.fromEntries(values.map((r) => [r.aspect, r.value]))]),
      )
    },
  })
}
