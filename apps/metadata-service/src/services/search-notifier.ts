import type { Logger } from 'pino'
import type { AfterWrite } from './ingest-service.js'

export interface SearchNotifierOptions {
  /** The Authorization header to send (a service token), or undefined with auth off. */
  readonly authorization?: () => string | undefined
  readonly log?: Logger
  /** How long a write waits for the index at most; past it the search service catches up by polling. */
  readonly timeoutMs?: number
  /** While search is out, how often one background request checks whether it answers again. Default 1000. */
  readonly probeIntervalMs?: number
}

/**
 * Split mode's synchronous index update: after a write is durable, ask the search service to
 * apply the change log now (`POST /internal/search/sync`) and wait for it, so a search issued
 * after the ingest returns sees it. A search service that is down or slow never fails the
 * write — the write is already durable and the index converges from its own cursor.
 *
 * One request answers for every write made durable before it was sent (the search service
 * applies the whole log as it stands when the request arrives), so concurrent writes share
 * requests: at most one is on the wire, and the writes that come while it is cannot count on
 * it and share the next one. Under load that is two requests per round trip, not one per write.
 *
 * After one failed or timed-out request the notifier stops waiting: writes return at once and
 * search catches up asynchronously from the change log (it polls it), while one background
 * request per `probeIntervalMs` checks whether search answers again; when it does, writes wait
 * for the index again. Each outage logs one warning and one recovery line, not one per write.
 */
export function searchNotifier(searchUrl: string, options: SearchNotifierOptions = {}): AfterWrite {
  const url = `${searchUrl.replace(/\/+$/, '')}/internal/search/sync`
  const timeoutMs = options.timeoutMs ?? 2000
  const probeIntervalMs = options.probeIntervalMs ?? 1000
  let down = false
  let lastProbe = 0
  let probing = false

  const notify = async (): Promise<void> => {
    const authorization = options.authorization?.()
    const res = await fetch(url, {
      method: 'POST',
      signal: AbortSignal.timeout(timeoutMs),
      ...(authorization ? { headers: { authorization } } : {}),
    })
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`the search service answered ${res.status}`)
  }

  const wentDown = (err: unknown, seq: number) => {
    if (down) return
    down = true
    lastProbe = Date.now()
    options.log?.warn(
      { reason: (err as Error).message, seq },
      'search service did not confirm indexing; writes stop waiting for it and it catches up from the change log',
    )
  }

  const probe = (seq: number) => {
    if (probing || Date.now() - lastProbe < probeIntervalMs) return
    probing = true
    lastProbe = Date.now()
    notify()
      .then(() => {
        down = false
        options.log?.info({ seq }, 'search service answers again; writes wait for the index again')
      })
      .catch(() => undefined)
      .finally(() => {
        probing = false
      })
  }

  /** The request on the wire, and the one queued behind it. */
  let inFlight: Promise<void> | undefined
  let queued: Promise<void> | undefined
  const send = (): Promise<void> => {
    const request = notify().finally(() => {
      if (inFlight === request) inFlight = undefined
    })
    inFlight = request
    return request
  }
  /** A request sent after this call: the one queued behind the request on the wire, if any. */
  const covering = (): Promise<void> => {
    if (!inFlight) return send()
    queued ??= inFlight
      .catch(() => undefined)
      .then(() => {
        queued = undefined
        // Search went out meanwhile: the writes stop waiting (it catches up from the log).
        return down ? undefined : send()
      })
    return queued
  }

  return async (seq) => {
    if (down) {
      probe(seq)
      return
    }
    try {
      await covering()
    } catch (err) {
      wentDown(err, seq)
    }
  }
}
