import {
  ACCESS_TOKEN_DURATIONS,
  ACCESS_TOKEN_ENTITY,
  GRAPHQL_UNAUTHORIZED_MESSAGE,
  Privilege,
  tokenInfoProposal,
} from '@catalog/auth'
import { ForbiddenError, InvalidInputError, UnavailableError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { resolveInput, write } from '../mutations/support.js'
import { searchOf } from './search.js'
import { type FacetFilter, toFilter } from './search-input.js'
import { holds } from './users-groups.js'

/** DataHub's `ListAccessTokensResolver` page defaults. */
const DEFAULT_START = 0
const DEFAULT_COUNT = 20

/** The name of the token record `getAccessToken` stores (DataHub's input has no name). */
export const GET_ACCESS_TOKEN_NAME = 'Personal access token'

interface ListAccessTokenInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly filters?: readonly FacetFilter[] | null
}

interface GetAccessTokenInput {
  readonly type: string
  readonly actorUrn: string
  readonly duration: string
}

/** DataHub's `AuthorizationUtils.canGeneratePersonalAccessToken`. */
const canGeneratePersonal = (ctx: CatalogContext) =>
  holds(ctx, [Privilege.GENERATE_PERSONAL_ACCESS_TOKENS, Privilege.MANAGE_ACCESS_TOKENS])

/** DataHub's `isListingSelfTokens`: a filter on `ownerUrn` that is exactly the caller. */
function listsOwnTokens(ctx: CatalogContext, filters: readonly FacetFilter[]): boolean {
  return filters.some((f) => f.field === 'ownerUrn' && f.values?.length === 1 && f.values[0] === ctx.actor)
}

/** Root queries of access tokens. */
export const accessTokenListQueries = {
  /**
   * DataHub's `ListAccessTokensResolver`: the tokens the search index finds for `filters`,
   * latest expiry first. Anyone with MANAGE_ACCESS_TOKENS lists any tokens; a user who may
   * generate personal tokens lists its own (filtered on `ownerUrn` = itself); anyone else is refused.
   */
  listAccessTokens: async (_: unknown, { input }: { input: ListAccessTokenInput }, ctx: CatalogContext) => {
    const filters = input.filters ?? []
    const allowed =
      (await holds(ctx, [Privilege.MANAGE_ACCESS_TOKENS])) ||
      (listsOwnTokens(ctx, filters) && (await canGeneratePersonal(ctx)))
    if (!allowed) throw new ForbiddenError(GRAPHQL_UNAUTHORIZED_MESSAGE)
    const answer = await searchOf(ctx).searchAcrossEntities({
      input: '*',
      entities: [ACCESS_TOKEN_ENTITY],
      start: input.start ?? DEFAULT_START,
      count: input.count ?? DEFAULT_COUNT,
      ...toFilter(null, filters),
      sortCriteria: [{ field: 'expiresAt', order: 'DESCENDING' }],
      searchFlags: { fulltext: true, skipAggregates: true, skipHighlighting: true },
    })
    return {
      start: answer.from,
      count: answer.pageSize,
      total: answer.numEntities,
      tokens: answer.metadata.urns.map((urn): EntitySource => ({ urn })),
    }
  },

  /**
   * DataHub's `GetAccessTokenResolver`: a PERSONAL token for the caller itself (with
   * GENERATE_PERSONAL_ACCESS_TOKENS or MANAGE_ACCESS_TOKENS), answered once. DataHub signs a
   * stateless token; this catalog only accepts personal tokens that have a stored record, so the
   * token is stored like `createAccessToken`'s (listed, and revocable).
   */
  getAccessToken: async (_: unknown, { input }: { input: GetAccessTokenInput }, ctx: CatalogContext) => {
    if (input.type !== 'PERSONAL') {
      throw new InvalidInputError(`Unsupported AccessTokenType ${input.type} provided`)
    }
    if (input.actorUrn !== ctx.actor || !(await canGeneratePersonal(ctx))) {
      throw new ForbiddenError(GRAPHQL_UNAUTHORIZED_MESSAGE)
    }
    const actor = resolveInput(ctx, input.actorUrn)
    if (!ctx.tokens) {
      throw new UnavailableError('Access tokens are not available: this server has no signing secret')
    }
    const ttlMs = ACCESS_TOKEN_DURATIONS[input.duration]
    if (ttlMs === undefined) throw new InvalidInputError(`Unknown access token duration ${input.duration}`)
    const issued = ctx.tokens.issue({
      actorUrn: actor.urn,
      ownerUrn: ctx.actor,
      ttlMs,
      name: GET_ACCESS_TOKEN_NAME,
    })
    await write(ctx, [tokenInfoProposal(issued.id, issued.info)])
    // DataHub answers the token alone.
    return { accessToken: issued.accessToken, metadata: null }
  },
}
