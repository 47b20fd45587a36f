import type { PolicyActors } from '@catalog/auth'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { typeNameOf } from './entities.js'
import { type ListInput, listEntities, requirePlatformPrivilege } from './users-groups.js'

export const POLICY_ASPECT = 'dataHubPolicyInfo'

/** DataHub's `PolicyMatchFilter`, as stored. */
export interface StoredMatchFilter {
  readonly criteria?: ReadonlyArray<{
    readonly field: string
    readonly values: readonly string[]
    readonly condition?: string
  }>
}

/** DataHub's `DataHubPolicyInfo` aspect, as stored. */
export interface StoredPolicy {
  readonly displayName: string
  readonly description?: string
  readonly type: string
  readonly state: string
  readonly privileges: readonly string[]
  readonly actors: PolicyActors
  readonly resources?: {
    readonly type?: string
    readonly resources?: readonly string[]
    readonly allResources?: boolean
    readonly filter?: StoredMatchFilter
    readonly privilegeConstraints?: StoredMatchFilter
  }
  readonly editable?: boolean
  readonly lastUpdatedTimestamp?: number
}

/** References to the entities among `urns` the GraphQL API serves. */
const entityRefs = (urns: readonly string[] | undefined) =>
  urns ? urns.filter((urn) => typeNameOf(urn) !== undefined).map((urn) => ({ urn })) : null

/** A criterion value: the entity too when the value is the URN of a served entity. */
const matchValue = (value: string) => ({ value, entity: typeNameOf(value) ? { urn: value } : null })

function matchFilter(filter: StoredMatchFilter | undefined) {
  if (!filter) return null
  return {
    criteria: (filter.criteria ?? []).map((c) => ({
      field: c.field,
      values: c.values.map(matchValue),
      condition: c.condition ?? 'EQUALS',
    })),
  }
}

/** DataHub's `PolicyInfoPolicyMapper`: a stored policy as the GraphQL `Policy`. */
export function toPolicy(urn: string, info: StoredPolicy) {
  const a = info.actors
  const r = info.resources
  return {
    urn,
    type: info.type,
    name: info.displayName,
    state: info.state,
    description: info.description ?? null,
    privileges: info.privileges,
    editable: info.editable ?? true,
    actors: {
      users: a.users ?? null,
      groups: a.groups ?? null,
      roles: a.roles ?? null,
      resourceOwners: a.resourceOwners ?? false,
      resourceOwnersTypes: a.resourceOwnersTypes ?? null,
      resolvedOwnershipTypes: entityRefs(a.resourceOwnersTypes),
      allUsers: a.allUsers ?? false,
      allGroups: a.allGroups ?? false,
      resolvedUsers: entityRefs(a.users),
      resolvedGroups: entityRefs(a.groups),
      resolvedRoles: entityRefs(a.roles),
    },
    resources: r
      ? {
          type: r.type ?? null,
          resources: r.resources ?? null,
          allResources: r.allResources ?? false,
          filter: matchFilter(r.filter),
          privilegeConstraints: matchFilter(r.privilegeConstraints),
        }
      : null,
  }
}

/** Root queries of policies. */
export const policyQueries = {
  /**
   * DataHub's `ListPoliciesResolver` (MANAGE_POLICIES): the policies the search index finds for
   * `query` and `orFilters`, default policies included.
   */
  listPolicies: async (_: unknown, { input }: { input: ListInput }, ctx: CatalogContext) => {
    await requirePlatformPrivilege(ctx, 'MANAGE_POLICIES')
    const { urns, ...page } = await listEntities(ctx, 'dataHubPolicy', input)
    const stored = await ctx.client.getEntities(urns, [POLICY_ASPECT])
    const policies = urns.flatMap((urn) => {
      const info = stored.get(urn)?.aspects[POLICY_ASPECT] as AspectValue | undefined
      return info ? [toPolicy(urn, info as unknown as StoredPolicy)] : []
    })
    return { ...page, policies }
  },
}
