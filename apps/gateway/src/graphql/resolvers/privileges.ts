import { DEFAULT_POLICIES } from '@catalog/auth'
import { ForbiddenError, ROOT_ACTOR } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { resolveInput } from '../mutations/support.js'

interface GetGrantedPrivilegesInput {
  readonly actorUrn: string
  readonly resourceSpec?: { readonly resourceType: string; readonly resourceUrn: string } | null
}

/** The privileges of the default policies naming the root user (auth off: every caller is it). */
const ROOT_PRIVILEGES = [
  ...new Set(
    DEFAULT_POLICIES.filter((p) => p.info.actors.users?.includes(ROOT_ACTOR)).flatMap(
      (p) => p.info.privileges,
    ),
  ),
]

/**
 * `getGrantedPrivileges`: what the policies grant the caller on a resource (or platform-wide),
 * as DataHub's `GetGrantedPrivilegesResolver`: only for oneself, plus `VIEW_ENTITY_PAGE` on
 * one's own user entity.
 */
async function getGrantedPrivileges(
  _: unknown,
  { input }: { input: GetGrantedPrivilegesInput },
  ctx: CatalogContext,
): Promise<{ privileges: string[] }> {
  if (input.actorUrn !== ctx.actor) {
    throw new ForbiddenError('Unauthorized to get privileges for the given author.')
  }
  const resource = input.resourceSpec ? resolveInput(ctx, input.resourceSpec.resourceUrn).urn : undefined
  const granted = ctx.authorizer
    ? await ctx.authorizer.grantedPrivileges(ctx.actor, resource)
    : ctx.actor === ROOT_ACTOR
      ? ROOT_PRIVILEGES
      : []
  const self = resource === ctx.actor ? ['VIEW_ENTITY_PAGE'] : []
  return { privileges: [...new Set([...granted, ...self])] }
}

export const privilegeQueries = { getGrantedPrivileges }
