import { CatalogError, InvalidInputError, OverloadedError, UnavailableError } from '@catalog/core'
import {
  MeilisearchApiError,
  type MeilisearchErrorResponse,
  MeilisearchRequestError,
  MeilisearchRequestTimeOutError,
  MeilisearchTaskTimeOutError,
} from 'meilisearch'

/** Errors of a Meilisearch answer that say the request itself was wrong (HTTP 400). */
const BAD_REQUEST_CODES = new Set([
  'invalid_search_filter',
  'invalid_search_sort',
  'invalid_search_q',
  'invalid_search_facets',
  'invalid_search_offset',
  'invalid_search_limit',
  'invalid_search_page',
  'invalid_search_hits_per_page',
  'invalid_search_attributes_to_search_on',
  'invalid_document_filter',
  'invalid_document_fields',
  'invalid_document_offset',
  'invalid_document_limit',
  'invalid_facet_search_facet_name',
])

/**
 * Maps a Meilisearch client error (or a failed task's error) to a domain error, the original
 * kept as `cause`; no client type crosses the port:
 *
 * - the server is unreachable, timed out, refused the API key, lost the index, or failed
 *   internally: {@link UnavailableError} (503);
 * - too many concurrent searches (HTTP 429): {@link OverloadedError};
 * - a search or document request Meilisearch rejects as invalid (a filter, sort or facet it
 *   cannot evaluate): {@link InvalidInputError} (400).
 *
 * Domain errors pass through; anything else is returned as it is (a bug, HTTP 500).
 * `doing` says what the adapter was doing ("search", "write documents").
 */
export function translateError(err: unknown, doing: string): Error {
  if (err instanceof CatalogError) return err
  if (err instanceof MeilisearchApiError) {
    return fromResponse(err.cause, err.response.status, doing, err)
  }
  if (err instanceof MeilisearchRequestTimeOutError)
    return new UnavailableError(`Meilisearch did not answer within ${err.cause.timeout} ms (${doing})`, {
      cause: err,
    })
  if (err instanceof MeilisearchTaskTimeOutError)
    return new UnavailableError(
      `Meilisearch did not process task ${err.cause.taskUid} within ${err.cause.timeout} ms (${doing}); it is applied again on the next sync`,
      { cause: err },
    )
  if (err instanceof MeilisearchRequestError)
    return new UnavailableError(`Meilisearch is unreachable (${doing}): ${causeText(err)}`, { cause: err })
  return err instanceof Error ? err : new Error(String(err))
}

/** The domain error of a task Meilisearch reports as failed. */
export function taskError(
  task: { uid: number; status: string; error: MeilisearchErrorResponse | null },
  doing: string,
): Error {
  if (!task.error) return new UnavailableError(`Meilisearch task ${task.uid} ended ${task.status} (${doing})`)
  return fromResponse(task.error, undefined, `${doing}, task ${task.uid}`, task.error)
}

function fromResponse(
  body: MeilisearchErrorResponse | undefined,
  status: number | undefined,
  doing: string,
  cause: unknown,
): Error {
  const code = body?.code ?? ''
  const detail = `${body?.message ?? `HTTP ${status ?? '?'}`}${code ? ` [${code}]` : ''}`
  if (status === 429 || code === 'too_many_search_requests')
    return Object.assign(new OverloadedError(`Meilisearch is overloaded (${doing}): ${detail}`, 1), { cause })
  if (body?.type === 'auth')
    return new UnavailableError(
      `Meilisearch refused the API key (MEILI_KEY) while trying to ${doing}: ${detail}`,
      { cause },
    )
  if (code === 'index_not_found')
    return new UnavailableError(`The Meilisearch index is gone (${doing}): ${detail}`, { cause })
  if (BAD_REQUEST_CODES.has(code) || (body?.type === 'invalid_request' && status === 400))
    return new InvalidInputError(`Meilisearch rejected the request (${doing}): ${detail}`, { cause })
  return new UnavailableError(`Meilisearch failed (${doing}): ${detail}`, { cause })
}

function causeText(err: Error): string {
  const cause = err.cause
  if (cause instanceof Error) return cause.cause instanceof Error ? cause.cause.message : cause.message
  return err.message
}
