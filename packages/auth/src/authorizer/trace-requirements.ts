import { readOfEach } from './openapi-requirements.js'
import type { RestCheck } from './rest-requirements.js'

const TRACE_ROUTE = '/openapi/v1/trace/write/:traceId'

/**
 * DataHub's `TraceController` (`POST /openapi/v1/trace/write/{traceId}`): READ of every URN the
 * body names (`isAPIAuthorizedEntityUrns(READ, urns)`), refused with
 * "<actor> is unauthorized to READ as least one of the requested URNs." (DataHub's wording).
 */
export function traceCheck(
  method: string,
  route: string,
  body: unknown,
  actor: string,
): RestCheck | undefined {
  if (method !== 'POST' || route !== TRACE_ROUTE) return undefined
  const urns = body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
  return {
    requirements: readOfEach(urns),
    message: `${actor} is unauthorized to READ as least one of the requested URNs.`,
  }
}
