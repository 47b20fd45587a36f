import type { Logger } from 'pino'
import type { AfterWrite } from './ingest-service.js'

export interface SearchNotifierOptions {
  /** The Authorization header to send (a service token), or undefined with auth off. */
  readonly authorization?: () => string | undefined
  readonly log?: Logger
  /** How long a write waits for the index at most; past it the search service catches up by polling. */
  readonly timeoutMs?: number
}

/**
 * Split mode's synchronous index update: after a write is durable, ask the search service to
 * apply the change log now (`POST /internal/search/sync`) and wait for it, so a search issued
 * after the ingest returns sees it. A search service that is down or slow never fails the
 * write — the write is already durable and the index converges from its own cursor.
 */
export function searchNotifier(searchUrl: string, options: SearchNotifierOptions = {}): AfterWrite {
  const url = `${searchUrl.replace(/\/+$/, '')}/internal/search/sync`
  const timeoutMs = options.timeoutMs ?? 2000
  return async (seq) => {
    const authorization = options.authorization?.()
    try {
      const res = await fetch(url, {
        method: 'POST',
        signal: AbortSignal.timeout(timeoutMs),
        ...(authorization ? { headers: { authorization } } : {}),
      })
      await res.arrayBuffer()
      if (!res.ok) options.log?.warn({ status: res.status, seq }, 'search service refused the sync request')
    } catch (err) {
      options.log?.warn({ err, seq }, 'search service did not confirm indexing; it will catch up by polling')
    }
  }
}
