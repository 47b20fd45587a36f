import type { CatalogContext } from '../context.js'
import { POLICY_ASPECT, type StoredPolicy } from './policies.js'
import { listEntities, requirePlatformPrivilege } from './users-groups.js'

/** Most relationships of each kind read, as DataHub's resolver (one page of 100). */
const PAGE = 100
/** Most policies considered, as DataHub's policy search. */
const MAX_POLICIES = 10_000

/** The URNs of one type `urn` points to by relationships of `types`, first page, distinct. */
async function related(
  ctx: CatalogContext,
  urn: string,
  types: string[],
  entityType: string,
): Promise<string[]> {
  const page = await ctx.client.relationships({ urn, direction: 'OUTGOING', types, start: 0, count: PAGE })
  const prefix = `urn:li:${entityType}:`
  return [...new Set(page.relationships.map((r) => r.entity).filter((e) => e.startsWith(prefix)))]
}

/** Whether a policy's actors name the user, one of its groups or roles, or all users or groups. */
function appliesTo(policy: StoredPolicy, user: string, groups: string[], roles: string[]): boolean {
  const a = policy.actors
  return (
    a.allUsers === true ||
    a.allGroups === true ||
    (a.users ?? []).includes(user) ||
    (a.groups ?? []).some((g) => groups.includes(g)) ||
    (a.roles ?? []).some((r) => roles.includes(r))
  )
}

/** Root queries of access debugging. */
export const debugAccessQueries = {
  /**
   * DataHub's `DebugAccessResolver` (MANAGE_USERS_AND_GROUPS): the roles and groups of a user, the
   * roles it has through its groups, the policies naming it (directly, by group, by role, or all
   * users or groups; active or not, newest first) and the privileges those policies grant.
   */
  debugAccess: async (_: unknown, { userUrn }: { userUrn: string }, ctx: CatalogContext) => {
    await requirePlatformPrivilege(ctx, 'MANAGE_USERS_AND_GROUPS')
    ctx.registry.resolveUrn(userUrn)
    const member = ['IsMemberOfRole', 'IsMemberOfGroup', 'IsMemberOfNativeGroup']
    const [roles, groups] = await Promise.all([
      related(ctx, userUrn, member, 'dataHubRole'),
      related(ctx, userUrn, member, 'corpGroup'),
    ])
    const groupsWithRoles: string[] = []
    const rolesViaGroups = new Set<string>()
    const ofGroups = await Promise.all(groups.map((g) => related(ctx, g, ['IsMemberOfRole'], 'dataHubRole')))
    groups.forEach((group, i) => {
      const groupRoles = ofGroups[i] ?? []
      if (groupRoles.length === 0) return
      groupsWithRoles.push(group)
      for (const role of groupRoles) rolesViaGroups.add(role)
    })
    const allRoles = [...new Set([...roles, ...rolesViaGroups])]

    const { urns } = await listEntities(ctx, 'dataHubPolicy', { start: 0, count: MAX_POLICIES })
    const stored = await ctx.client.getEntities(urns, [POLICY_ASPECT])
    const policies = urns
      .flatMap((urn) => {
        const info = stored.get(urn)?.aspects[POLICY_ASPECT] as unknown as StoredPolicy | undefined
        return info && appliesTo(info, userUrn, groups, allRoles) ? [{ urn, info }] : []
      })
      .sort((a, b) => (b.info.lastUpdatedTimestamp ?? 0) - (a.info.lastUpdatedTimestamp ?? 0))
    return {
      roles,
      groups,
      groupsWithRoles,
      rolesViaGroups: [...rolesViaGroups],
      allRoles,
      policies: policies.map((p) => p.urn),
      privileges: [...new Set(policies.flatMap((p) => p.info.privileges ?? []))],
    }
  },
}
