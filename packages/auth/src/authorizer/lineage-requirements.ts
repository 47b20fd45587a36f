import { parseUrn } from '@catalog/core'
import type { RestCheck } from './rest-requirements.js'

/** `API_PRIVILEGE_MAP[LINEAGE][DELETE]` in DataHub's `PoliciesConfig`. */
const LINEAGE_DELETE = ['EDIT_ENTITY', 'DELETE_ENTITY', 'EDIT_LINEAGE']

/**
 * `DELETE /relationships?urn=` (DataHub's `Relationships.delete`): LINEAGE DELETE on the URN,
 * refused with DataHub's message. Undefined for other requests, and for a URN the route itself
 * refuses as malformed.
 */
export function lineageDeleteCheck(method: string, route: string, query: unknown): RestCheck | undefined {
  if (method !== 'DELETE' || route !== '/relationships') return undefined
  const urn = query !== null && typeof query === 'object' ? (query as { urn?: unknown }).urn : undefined
  if (typeof urn !== 'string') return undefined
  try {
    parseUrn(urn)
  } catch {
    return undefined
  }
  return {
    requirements: [{ anyOf: LINEAGE_DELETE, resource: urn }],
    message: `User is unauthorized to delete entity: ${urn}`,
  }
}
