import { type CatalogError, errorOfKind, kindOfStatus, UnavailableError } from '@catalog/core'

interface Call {
  readonly method: string
  readonly path: string
  readonly payload?: unknown
  /** A 404 answers undefined instead of failing. */
  readonly notFoundIsEmpty?: boolean
  readonly timeoutMs?: number
}

/**
 * One Rest.li call to a backing service, forwarding the caller's `Authorization`; an error
 * status becomes the domain error of that status, with the service's message kept.
 */
export async function restCall(
  baseUrl: string,
  service: string,
  authorization: string | undefined,
  call: Call,
): Promise<unknown> {
  const headers: Record<string, string> = { 'x-restli-protocol-version': '2.0.0' }
  if (authorization) headers.authorization = authorization
  if (call.payload !== undefined) headers['content-type'] = 'application/json'
  let response: Response
  try {
    response = await fetch(baseUrl + call.path, {
      method: call.method,
      headers,
      ...(call.payload !== undefined ? { body: JSON.stringify(call.payload) } : {}),
      signal: AbortSignal.timeout(call.timeoutMs ?? 30_000),
    })
  } catch (err) {
    throw new UnavailableError(`${service} at ${baseUrl} did not answer`, { cause: err })
  }
  const text = await response.text()
  if (response.status === 404 && call.notFoundIsEmpty) return undefined
  if (!response.ok) throw errorFor(service, response.status, messageOf(text) ?? `HTTP ${response.status}`)
  return text.length > 0 ? JSON.parse(text) : undefined
}

function messageOf(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { message?: unknown }
    return typeof body.message === 'string' ? body.message : undefined
  } catch {
    return undefined
  }
}

/** The domain error for a service's error status (its Rest.li body's message kept). */
function errorFor(service: string, status: number, message: string): CatalogError {
  const kind = kindOfStatus(status)
  const known = kind && kind !== 'unavailable' ? errorOfKind(kind, message) : undefined
  return known ?? new UnavailableError(`${service} failed (HTTP ${status}): ${message}`)
}
