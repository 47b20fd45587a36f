import { UnavailableError } from '@catalog/core'
import { ACCESS_TOKEN_KEY_ASPECT, accessTokenUrn } from './token-records.js'
import type { ActiveCheck } from './token-service.js'

/**
 * Revocation check for a process that runs apart from the metadata service (the gateway or
 * the search service alone): asks the metadata service for the token's key aspect,
 * presenting the token itself. The metadata service authenticates it against its store, so a
 * revoked token answers 401 (or 404 when that service runs with auth off) and a live one 200.
 */
export function httpActiveCheck(metadataUrl: string, timeoutMs = 5000): ActiveCheck {
  return async (tokenId, token) => {
    const url = `${metadataUrl}/aspects/${encodeURIComponent(accessTokenUrn(tokenId))}?aspect=${ACCESS_TOKEN_KEY_ASPECT}&version=0`
    let response: Response
    try {
      response = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, 'x-restli-protocol-version': '2.0.0' },
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (err) {
      throw new UnavailableError(
        `cannot check the token: the metadata service at ${metadataUrl} did not answer`,
        {
          cause: err,
        },
      )
    }
    await response.arrayBuffer()
    if (response.status === 200) return true
    if (response.status === 401 || response.status === 404) return false
    throw new UnavailableError(`cannot check the token: the metadata service answered ${response.status}`)
  }
}
