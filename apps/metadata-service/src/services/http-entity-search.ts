import { type CatalogError, errorOfKind, kindOfStatus, UnavailableError } from '@catalog/core'
import type { EntitySearch, EntitySearchAnswer, EntitySearchBody } from './entity-search.js'

export interface HttpEntitySearchOptions {
  /** The Authorization header to send (a service token), or undefined with auth off. */
  readonly authorization?: () => string | undefined
  readonly timeoutMs?: number
}

/**
 * {@link EntitySearch} over the search service's REST endpoint (split mode):
 * `POST /entities?action=searchAcrossEntities` with the service token. An error status
 * becomes the domain error of that status with the search service's message kept; a search
 * service that does not answer is an `UnavailableError` (503).
 */
export class HttpEntitySearch implements EntitySearch {
  private readonly url: string

  constructor(
    searchUrl: string,
    private readonly options: HttpEntitySearchOptions = {},
  ) {
    this.url = `${searchUrl.replace(/\/+$/, '')}/entities?action=searchAcrossEntities`
  }

  async searchAcrossEntities(body: EntitySearchBody): Promise<EntitySearchAnswer> {
    const authorization = this.options.authorization?.()
    let res: Response
    try {
      res = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-restli-protocol-version': '2.0.0',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      })
    } catch (err) {
      throw new UnavailableError('the search service did not answer', { cause: err })
    }
    const text = await res.text()
    if (!res.ok) throw errorFor(res.status, messageOf(text) ?? `HTTP ${res.status}`)
    return (JSON.parse(text) as { value: EntitySearchAnswer }).value
  }
}

function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown }
    return typeof body.message === 'string' ? body.message : undefined
  } catch {
    return undefined
  }
}

function errorFor(status: number, message: string): CatalogError {
  const kind = kindOfStatus(status)
  const known = kind && kind !== 'unavailable' ? errorOfKind(kind, message) : undefined
  return known ?? new UnavailableError(`the search service failed (HTTP ${status}): ${message}`)
}
