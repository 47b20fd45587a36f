import { GRAPHQL_UNAUTHORIZED_MESSAGE } from '@catalog/auth'
import { ForbiddenError } from '@catalog/core'
import type { SearchAcrossBody } from '../clients/search-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { searchOf } from './search.js'
import type { OrFilters } from './search-input.js'
import { filterOf } from './view-apply.js'

/** DataHub's page size of its list resolvers (`listUsers`, `listGroups`, `listPolicies`). */
const DEFAULT_COUNT = 20

/** The `start`/`count`/`query` input of DataHub's list resolvers. */
export interface ListInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
  readonly orFilters?: OrFilters
}

/**
 * DataHub's resolver-side check of a platform privilege (`canManageUsersAndGroups`,
 * `canManagePolicies`): queries are not checked before their resolver. Auth off: allowed.
 */
export async function requirePlatformPrivilege(
  ctx: CatalogContext,
  privilege: string,
  message = GRAPHQL_UNAUTHORIZED_MESSAGE,
): Promise<void> {
  if (!(await holds(ctx, [privilege]))) throw new ForbiddenError(message)
}

/** Whether the caller holds any of `privileges` platform-wide (auth off: yes). */
export async function holds(ctx: CatalogContext, privileges: readonly string[]): Promise<boolean> {
  return !ctx.authorizer || ctx.authorizer.authorize(ctx.actor, [{ anyOf: privileges }])
}

/**
 * One page of the entities of `entityType` the search index finds for `input.query` (all without
 * one), in `sortCriteria` order if given.
 */
export async function listEntities(
  ctx: CatalogContext,
  entityType: string,
  input: ListInput,
  sortCriteria?: SearchAcrossBody['sortCriteria'],
  flags?: Readonly<Record<string, unknown>>,
) {
  const filter = filterOf(input.orFilters ?? null)
  const answer = await searchOf(ctx).searchAcrossEntities({
    input: input.query?.trim() || '*',
    entities: [entityType],
    start: Math.max(0, input.start ?? 0),
    count: Math.max(0, input.count ?? DEFAULT_COUNT),
    ...(filter ? { filter } : {}),
    ...(sortCriteria ? { sortCriteria } : {}),
    searchFlags: { fulltext: true, skipAggregates: true, skipHighlighting: true, ...flags },
  })
  return {
    start: answer.from,
    count: answer.pageSize,
    total: answer.numEntities,
    urns: answer.metadata.urns,
  }
}

/** A page of `listUsers` / `listGroups`: each entity a reference whose fields load on demand. */
async function listPage(ctx: CatalogContext, entityType: string, input: ListInput) {
  await requirePlatformPrivilege(ctx, 'MANAGE_USERS_AND_GROUPS')
  const { urns, ...page } = await listEntities(ctx, entityType, { ...input, orFilters: null })
  return { page, refs: urns.map((urn): EntitySource => ({ urn })) }
}

/** Root queries of users and groups. */
export const userGroupQueries = {
  /** DataHub's `ListUsersResolver`: users from the search index (MANAGE_USERS_AND_GROUPS). */
  listUsers: async (_: unknown, { input }: { input: ListInput }, ctx: CatalogContext) => {
    const { page, refs } = await listPage(ctx, 'corpuser', input)
    return { ...page, users: refs }
  },

  /** DataHub's `ListGroupsResolver`: groups from the search index (MANAGE_USERS_AND_GROUPS). */
  listGroups: async (_: unknown, { input }: { input: ListInput }, ctx: CatalogContext) => {
    const { page, refs } = await listPage(ctx, 'corpGroup', input)
    return { ...page, groups: refs }
  },
}
