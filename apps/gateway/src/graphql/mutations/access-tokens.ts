import {
  ACCESS_TOKEN_DURATIONS,
  ACCESS_TOKEN_INFO_ASPECT,
  accessTokenUrn,
  type TokenService,
  tokenDeleteProposal,
  tokenInfoProposal,
} from '@catalog/auth'
import { ForbiddenError, InvalidInputError, NotFoundError, ROOT_ACTOR, UnavailableError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { isServiceAccount } from './service-accounts.js'
import { resolveInput, write } from './support.js'

/** DataHub's authorization message. */
export const UNAUTHORIZED_MESSAGE =
  'Unauthorized to perform this action. Please contact your DataHub administrator.'

interface CreateAccessTokenInput {
  readonly type: 'PERSONAL' | 'SERVICE_ACCOUNT'
  readonly actorUrn: string
  readonly duration: string
  readonly name: string
  readonly description?: string | null
}

function tokensOf(ctx: CatalogContext): TokenService {
  if (!ctx.tokens)
    throw new UnavailableError('Access tokens are not available: this server has no signing secret')
  return ctx.tokens
}

/**
 * `createAccessToken` (DataHub's shape): mints a token for `actorUrn`, stores its
 * `dataHubAccessToken` entity and returns the token once. A SERVICE_ACCOUNT token must be for a
 * service account (and needs MANAGE_SERVICE_ACCOUNTS, nothing else). Who may is checked before this runs,
 * by DataHub's rule (for oneself with GENERATE_PERSONAL_ACCESS_TOKENS, for anyone with
 * MANAGE_ACCESS_TOKENS; see `authorize-mutations.ts`); without that authorizer a user mints
 * tokens for itself and the root user for anyone.
 */
async function createAccessToken(
  _: unknown,
  { input }: { input: CreateAccessTokenInput },
  ctx: CatalogContext,
): Promise<{ accessToken: string; metadata: EntitySource }> {
  const tokens = tokensOf(ctx)
  const actor = resolveInput(ctx, input.actorUrn)
  if (actor.entity.name !== 'corpuser') {
    throw new InvalidInputError(
      `Failed to create access token: actorUrn ${input.actorUrn} is not a corpuser urn`,
    )
  }
  if (input.type === 'SERVICE_ACCOUNT') {
    if (!(await isServiceAccount(ctx, actor.urn)))
      throw new InvalidInputError(`The specified URN is not a service account: ${input.actorUrn}`)
  } else if (!ctx.authorizer && ctx.actor !== actor.urn && ctx.actor !== ROOT_ACTOR) {
    throw new ForbiddenError(UNAUTHORIZED_MESSAGE)
  }
  const ttlMs = ACCESS_TOKEN_DURATIONS[input.duration]
  if (ttlMs === undefined) throw new InvalidInputError(`Unknown access token duration ${input.duration}`)
  const issued = tokens.issue({
    actorUrn: actor.urn,
    ownerUrn: ctx.actor,
    ttlMs,
    type: input.type,
    name: input.name,
    ...(input.description != null ? { description: input.description } : {}),
  })
  await write(ctx, [tokenInfoProposal(issued.id, issued.info)])
  // A service account deleted meanwhile: its delete may have looked for its tokens before this one
  // was written, so the token is revoked here.
  if (input.type === 'SERVICE_ACCOUNT' && !(await isServiceAccount(ctx, actor.urn))) {
    await write(ctx, [tokenDeleteProposal(issued.id)])
    tokens.forget(issued.id)
    throw new InvalidInputError(`The specified URN is not a service account: ${input.actorUrn}`)
  }
  return { accessToken: issued.accessToken, metadata: { urn: accessTokenUrn(issued.id) } }
}

/**
 * `revokeAccessToken(tokenId)`: hard-deletes the token entity, so every process that
 * verifies tokens refuses it. Its owner or its actor may revoke it, anyone else needs
 * MANAGE_ACCESS_TOKENS (checked before this runs; without that authorizer, the root user).
 */
async function revokeAccessToken(
  _: unknown,
  { tokenId }: { tokenId: string },
  ctx: CatalogContext,
): Promise<boolean> {
  const urn = resolveInput(ctx, accessTokenUrn(tokenId)).urn
  const entity = (await ctx.client.getEntities([urn], [ACCESS_TOKEN_INFO_ASPECT])).get(urn)
  const info = entity?.aspects[ACCESS_TOKEN_INFO_ASPECT]
  if (!info) throw new NotFoundError(`Access token ${tokenId} does not exist`)
  const own = ctx.actor === info.ownerUrn || ctx.actor === info.actorUrn
  if (!ctx.authorizer && !own && ctx.actor !== ROOT_ACTOR) {
    throw new ForbiddenError(UNAUTHORIZED_MESSAGE)
  }
  await write(ctx, [tokenDeleteProposal(tokenId)])
  ctx.tokens?.forget(tokenId)
  return true
}

/** `getAccessTokenMetadata(token)`: the stored record of a valid (unexpired, unrevoked) token. */
async function getAccessTokenMetadata(
  _: unknown,
  { token }: { token: string },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const principal = await tokensOf(ctx).authenticate(`Bearer ${token}`)
  return { urn: accessTokenUrn(principal.tokenId) }
}

export const accessTokenMutations = { createAccessToken, revokeAccessToken }
export const accessTokenQueries = { getAccessTokenMetadata }
