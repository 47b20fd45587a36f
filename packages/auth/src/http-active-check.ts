import { UnavailableError } from '@catalog/core'
import { ACCESS_TOKEN_KEY_ASPECT, accessTokenUrn } from './token-records.js'
import type { ActiveCheck } from './token-service.js'

/**
 * Revocation check for a process that runs apart from the metadata service (the gateway or
 * the search service alone): asks the metadata service for the token's key aspect,
 * presenting the token itself. The metadata service authenticates it against its store, so a
 * revoked token answers 401 (or 404 when that service runs with auth off) and a live one 200.
 * While the metadata service is out, a token's last answer stands in for a short while.
 */
export function httpActiveCheck(
  metadataUrl: string,
  timeoutMs = 5000,
  options: HttpActiveCheckOptions = {},
): ActiveCheck {
  const staleMs = options.staleIfUnavailableMs ?? 60_000
  const maxEntries = options.maxEntries ?? 10_000
  const now = options.now ?? Date.now
  const known = new Map<string, { active: boolean; at: number }>()
  const ask = askMetadataService(metadataUrl, timeoutMs)
  return async (tokenId, token) => {
    try {
      const active = await ask(tokenId, token)
      if (known.size >= maxEntries) known.clear()
      known.set(tokenId, { active, at: now() })
      return active
    } catch (err) {
      // The metadata service is out: the last answer it gave, while recent, stands in for it.
      const last = known.get(tokenId)
      if (err instanceof UnavailableError && last && now() - last.at <= staleMs) return last.active
      throw err
    }
  }
}

export interface HttpActiveCheckOptions {
  /**
   * How long (ms) the last answer for a token stands in while the metadata service does not
   * answer, so search and the gateway keep serving known tokens through a short outage. Default 60000.
   */
  readonly staleIfUnavailableMs?: number
  /** Most remembered tokens (default 10000). */
  readonly maxEntries?: number
  readonly now?: () => number
}

function askMetadataService(metadataUrl: string, timeoutMs: number): ActiveCheck {
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
    // 403: the token authenticated there (revocation included) and only reading its own entity
    // was refused, which a user without view rights on it may well be.
    if (response.status === 200 || response.status === 403) return true
    if (response.status === 401 || response.status === 404) return false
    throw new UnavailableError(`cannot check the token: the metadata service answered ${response.status}`)
  }
}
