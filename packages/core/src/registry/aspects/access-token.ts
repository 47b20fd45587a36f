/** Access token aspects (`com.linkedin.access.token.*`): the record of a minted bearer token. */
import { Type } from '@sinclair/typebox'
import { Opt, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'

/**
 * `DataHubAccessTokenInfo`: one minted token. The token entity exists while the token is
 * valid; revoking it hard-deletes the entity, and every verifier checks that it still exists.
 */
const dataHubAccessTokenInfo: AspectSpec = {
  name: 'dataHubAccessTokenInfo',
  record: 'com.linkedin.access.token.DataHubAccessTokenInfo',
  schema: Type.Object({
    name: Type.String({ maxLength: 500 }),
    actorUrn: UrnString(),
    ownerUrn: UrnString(),
    createdAt: Type.Integer(),
    expiresAt: Opt(Type.Integer()),
    description: Opt(Type.String()),
  }),
  searchable: [
    { path: 'name', fieldName: 'name', type: 'TEXT_PARTIAL' },
    { path: 'actorUrn', fieldName: 'actorUrn', type: 'URN', addToFilters: true, queryByDefault: false },
    { path: 'ownerUrn', fieldName: 'ownerUrn', type: 'URN', addToFilters: true, queryByDefault: false },
    { path: 'createdAt', fieldName: 'createdAt', type: 'COUNT', queryByDefault: false },
    { path: 'expiresAt', fieldName: 'expiresAt', type: 'COUNT', queryByDefault: false },
  ],
}

export const ACCESS_TOKEN_ASPECTS: readonly AspectSpec[] = [dataHubAccessTokenInfo]
