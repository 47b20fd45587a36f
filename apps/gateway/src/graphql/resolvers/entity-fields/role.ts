import type { CatalogContext } from '../../context.js'
import { list } from '../../mappers/common.js'
import { roleActors } from '../../mappers/role.js'

/**
 * `Role.isAssignedToMe`, as DataHub's IsAssignedToMeResolver: whether the caller is among the
 * role's users, or in one of its groups (by `groupMembership` or `nativeGroupMembership`).
 */
export async function roleAssignedToMe(source: { urn: string }, _args: unknown, ctx: CatalogContext) {
  const { users, groups } = roleActors(await ctx.graph.object(source.urn))
  if (users.includes(ctx.actor)) return true
  if (groups.length === 0) return false
  const memberships = ['groupMembership', 'nativeGroupMembership']
  const aspects = (await ctx.client.getEntities([ctx.actor], memberships)).get(ctx.actor)?.aspects ?? {}
  const mine = [
    ...list(aspects.groupMembership?.groups),
    ...list(aspects.nativeGroupMembership?.nativeGroups),
  ]
  return mine.some((g) => typeof g === 'string' && groups.includes(g))
}
