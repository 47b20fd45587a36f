import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { referenceRemovals } from './entity-references.js'
import { deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

/** The URN of `urn` when it is of `entityType`; a 400 otherwise. */
function refOf(ctx: CatalogContext, urn: string, entityType: 'corpuser' | 'corpGroup') {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== entityType) throw new InvalidInputError(`${urn} is not a ${entityType} urn`)
  return ref
}

/**
 * A hard delete as DataHub's `RemoveUserResolver` / `RemoveGroupResolver` make it: the entity
 * (every aspect, its edges, its search document) and, in the same write, every reference to it
 * in other entities' aspects (`deleteEntityReferences`: group memberships, owners, ...). DataHub
 * answers true, whether or not the entity existed.
 */
async function hardDelete(ctx: CatalogContext, urn: string, entityType: 'corpuser' | 'corpGroup') {
  const ref = refOf(ctx, urn, entityType)
  await write(ctx, [...(await referenceRemovals(ctx, ref)), deleteEntity(ref)])
  return true
}

/** `removeUser(urn)`: the user hard-deleted (MANAGE_USERS_AND_GROUPS, checked by `authorizeMutation`). */
function removeUser(_: unknown, { urn }: { urn: string }, ctx: CatalogContext) {
  return hardDelete(ctx, urn, 'corpuser')
}

/** `removeGroup(urn)`: the group hard-deleted, and its members' membership of it with it. */
function removeGroup(_: unknown, { urn }: { urn: string }, ctx: CatalogContext) {
  return hardDelete(ctx, urn, 'corpGroup')
}

/**
 * DataHub's `UpdateUserStatusResolver`: writes `corpUserStatus {status, lastModified}` (ACTIVE or
 * SUSPENDED, stamped with the caller) and answers the user's URN. A SUSPENDED user can no longer
 * sign in, and its tokens are refused (see `inactiveActorGuard`).
 */
async function updateUserStatus(
  _: unknown,
  { urn, status }: { urn: string; status: string },
  ctx: CatalogContext,
): Promise<string> {
  const ref = refOf(ctx, urn, 'corpuser')
  await write(ctx, [upsert(ref, 'corpUserStatus', { status, lastModified: stampOf(ctx) })])
  return ref.urn
}

/** User and group administration mutations. */
export const userAdminMutations = { removeUser, removeGroup, updateUserStatus }
