import {
  type CredentialRecords,
  INVITE_TOKEN_ENTITY,
  InviteTokenService,
  NativeUserService,
  type TokenService,
} from '@catalog/auth'
import { InvalidInputError, UnavailableError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { requirePlatformPrivilege } from '../resolvers/users-groups.js'
import { resolveInput, upsert, write } from './support.js'
import { userAdminMutations } from './users-admin.js'

/** Invite tokens and native users' reset tokens, read and written through the request's metadata client. */
function recordsOf(ctx: CatalogContext): CredentialRecords {
  return {
    async aspects(urn, names) {
      const entity = (await ctx.client.getEntities([urn], names)).get(urn)
      return { ...(entity?.aspects ?? {}) }
    },
    write: (proposals) => write(ctx, proposals),
  }
}

function tokensOf(ctx: CatalogContext): TokenService {
  if (!ctx.tokens)
    throw new UnavailableError('Invite and reset tokens are not available: this server has no secret')
  return ctx.tokens
}

/** The stored invite tokens of a role, found as DataHub does: a search on `role` / `hasRole`. */
function finderOf(ctx: CatalogContext) {
  return async (role: string | null, limit: number): Promise<readonly string[]> => {
    if (!ctx.search) return []
    const criterion =
      role === null
        ? { field: 'hasRole', value: 'false', condition: 'EQUAL' }
        : { field: 'role', value: role, condition: 'EQUAL' }
    const answer = await ctx.search.searchAcrossEntities({
      input: '*',
      entities: [INVITE_TOKEN_ENTITY],
      start: 0,
      count: limit,
      filter: { or: [{ and: [criterion] }] },
    })
    return answer.metadata.urns
  }
}

/** `createInviteToken(input: {roleUrn})`: a new invite token (DataHub's `InviteToken` type). */
async function createInviteToken(
  _: unknown,
  { input }: { input: { roleUrn?: string | null } },
  ctx: CatalogContext,
): Promise<{ inviteToken: string }> {
  await requirePlatformPrivilege(ctx, 'MANAGE_POLICIES')
  const invites = new InviteTokenService(recordsOf(ctx), tokensOf(ctx).cipher)
  return { inviteToken: await invites.create(input.roleUrn ?? null) }
}

/** `getInviteToken(input: {roleUrn})`: the stored invite token of the role, created when there is none. */
async function getInviteToken(
  _: unknown,
  { input }: { input: { roleUrn?: string | null } },
  ctx: CatalogContext,
): Promise<{ inviteToken: string }> {
  await requirePlatformPrivilege(ctx, 'MANAGE_POLICIES')
  const invites = new InviteTokenService(recordsOf(ctx), tokensOf(ctx).cipher)
  return { inviteToken: await invites.get(input.roleUrn ?? null, false, finderOf(ctx)) }
}

/** `createNativeUserResetToken(input: {userUrn})`: a one-day reset token (DataHub's `ResetToken` type). */
async function createNativeUserResetToken(
  _: unknown,
  { input }: { input: { userUrn: string } },
  ctx: CatalogContext,
): Promise<{ resetToken: string }> {
  const users = new NativeUserService(recordsOf(ctx), tokensOf(ctx).cipher)
  return { resetToken: await users.generatePasswordResetToken(input.userUrn) }
}

/**
 * DataHub's `AcceptRoleResolver`: the caller takes the role of a stored invite token
 * (`roleMembership {roles: [role]}`; a token without a role clears the caller's roles). Any
 * signed-in caller may; an unknown token is refused and nothing changes.
 */
async function acceptRole(
  _: unknown,
  { input }: { input: { inviteToken: string } },
  ctx: CatalogContext,
): Promise<boolean> {
  const token = input.inviteToken
  const invites = new InviteTokenService(recordsOf(ctx), tokensOf(ctx).cipher)
  if (!(await invites.isValid(token))) {
    throw new InvalidInputError(`Failed to accept role using invite token ${token}: the token is invalid`)
  }
  const role = await invites.roleOf(token)
  if (role !== undefined && !(await ctx.client.exists(role))) {
    throw new InvalidInputError(
      `Failed to accept role using invite token ${token}: role ${role} does not exist`,
    )
  }
  await write(ctx, [upsert(resolveInput(ctx, ctx.actor), 'roleMembership', { roles: role ? [role] : [] })])
  return true
}

export const nativeUserMutations = {
  createInviteToken,
  createNativeUserResetToken,
  acceptRole,
  ...userAdminMutations,
}
export const nativeUserQueries = { getInviteToken }
