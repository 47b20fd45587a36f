import type { AspectStore } from '@catalog/store'
import type { AccessTokenInfo, ActiveCheck } from './token-service.js'

/** Entity type, key aspect and info aspect of stored access tokens (as in DataHub). */
export const ACCESS_TOKEN_ENTITY = 'dataHubAccessToken'
export const ACCESS_TOKEN_KEY_ASPECT = 'dataHubAccessTokenKey'
export const ACCESS_TOKEN_INFO_ASPECT = 'dataHubAccessTokenInfo'

/** A metadata change proposal, as the ingest endpoints take it. */
export interface TokenProposal {
  readonly entityType: string
  readonly entityUrn: string
  readonly changeType: 'UPSERT' | 'DELETE'
  readonly aspectName: string
  readonly aspect?: { readonly value: string; readonly contentType: string }
}

/** A proposal the auth bootstrap writes: token records, and default policies created only if absent. */
export interface BootstrapProposal extends Omit<TokenProposal, 'changeType'> {
  readonly changeType: 'UPSERT' | 'CREATE' | 'DELETE'
}

/** `urn:li:dataHubAccessToken:<id>`. */
export function accessTokenUrn(tokenId: string): string {
  return `urn:li:${ACCESS_TOKEN_ENTITY}:${tokenId}`
}

/** The proposal that stores a minted token (creates its entity). */
export function tokenInfoProposal(tokenId: string, info: AccessTokenInfo): TokenProposal {
  return {
    entityType: ACCESS_TOKEN_ENTITY,
    entityUrn: accessTokenUrn(tokenId),
    changeType: 'UPSERT',
    aspectName: ACCESS_TOKEN_INFO_ASPECT,
    aspect: { value: JSON.stringify(info), contentType: 'application/json' },
  }
}

/** The proposal that revokes a token: a hard delete of its entity (its key aspect). */
export function tokenDeleteProposal(tokenId: string): TokenProposal {
  return {
    entityType: ACCESS_TOKEN_ENTITY,
    entityUrn: accessTokenUrn(tokenId),
    changeType: 'DELETE',
    aspectName: ACCESS_TOKEN_KEY_ASPECT,
  }
}

/** An {@link ActiveCheck} that reads the metadata store directly. */
export function storeActiveCheck(store: Pick<AspectStore, 'exists'>): ActiveCheck {
  return (tokenId) => store.exists(accessTokenUrn(tokenId), ACCESS_TOKEN_KEY_ASPECT)
}

/** Reads a stored token's info from the metadata store; undefined when revoked or unknown. */
export async function readTokenInfo(
  store: Pick<AspectStore, 'latest'>,
  tokenId: string,
): Promise<AccessTokenInfo | undefined> {
  const urn = accessTokenUrn(tokenId)
  const rows = (await store.latest([urn], [ACCESS_TOKEN_INFO_ASPECT])).get(urn) ?? []
  const row = rows.find((r) => r.aspect === ACCESS_TOKEN_INFO_ASPECT)
  return row ? (row.value as unknown as AccessTokenInfo) : undefined
}
