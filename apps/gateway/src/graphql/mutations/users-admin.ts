import { ACCESS_TOKEN_ENTITY, tokenDeleteProposal } from '@catalog/auth'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { writeWithReferences } from './entity-references.js'
import { deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

/** The URN of `urn` when it is of `entityType`; a 400 otherwise. */
function refOf(ctx: CatalogContext, urn: string, entityType: 'corpuser' | 'corpGroup') {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== entityType) throw new InvalidInputError(`${urn} is not a ${entityType} urn`)
  return ref
}

/** Tokens looked at per search page, and at most in all (the search window). */
const TOKEN_PAGE = 1_000
const MAX_TOKENS = 10_000

/**
 * The ids of the stored access tokens (`dataHubAccessToken`) whose actor or owner is `user`,
 * found in the search index as `listAccessTokens` finds them (without a search service: none).
 */
async function tokensOf(ctx: CatalogContext, user: string): Promise<string[]> {
  if (!ctx.search) return []
  const ids = new Set<string>()
  const prefix = `urn:li:${ACCESS_TOKEN_ENTITY}:`
  for (let start = 0; start < MAX_TOKENS; start += TOKEN_PAGE) {
    const page = await ctx.search.searchAcrossEntities({
      input: '*',
      entities: [ACCESS_TOKEN_ENTITY],
      start,
      count: TOKEN_PAGE,
      filter: {
        or: ['actorUrn', 'ownerUrn'].map((field) => ({
          and: [{ field, values: [user], condition: 'EQUAL', negated: false }],
        })),
      },
      searchFlags: { skipAggregates: true, skipHighlighting: true },
    })
    for (const urn of page.metadata.urns) if (urn.startsWith(prefix)) ids.add(urn.slice(prefix.length))
    if (page.metadata.urns.length < TOKEN_PAGE || start + TOKEN_PAGE >= page.numEntities) break
  }
  return [...ids]
}

/** Revokes every stored token whose actor or owner is `user`. */
export async function revokeTokensOf(ctx: CatalogContext, user: string): Promise<void> {
  const ids = await tokensOf(ctx, user)
  await write(ctx, ids.map(tokenDeleteProposal))
  for (const id of ids) ctx.tokens?.forget(id)
}

/** A removed user's access tokens, revoked with it: its own and those it minted for others. */
async function tokenRevocations(ctx: CatalogContext, ref: EntityRef): Promise<string[]> {
  return ref.entity.name === 'corpuser' ? tokensOf(ctx, ref.urn) : []
}

/**
 * A hard delete as DataHub's `RemoveUserResolver` / `RemoveGroupResolver` make it: the entity
 * (every aspect, its edges, its search document) and, in the same write, every reference to it
 * in other entities' aspects (`deleteEntityReferences`: group memberships, owners, ...). A
 * removed user's access tokens (as actor or owner) are revoked in that same write, so none of
 * them authenticates afterwards. DataHub answers true, whether or not the entity existed.
 */
export async function hardDelete(ctx: CatalogContext, urn: string, entityType: 'corpuser' | 'corpGroup') {
  const ref = refOf(ctx, urn, entityType)
  const tokenIds = await tokenRevocations(ctx, ref)
  const revocations: MetadataProposal[] = tokenIds.map(tokenDeleteProposal)
  await writeWithReferences(ctx, ref, [...revocations, deleteEntity(ref)])
  for (const id of tokenIds) ctx.tokens?.forget(id)
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
