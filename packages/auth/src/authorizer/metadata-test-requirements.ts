import { parseUrn } from '@catalog/core'
import type { Requirement } from './authorizer.js'
import { readOfEach } from './openapi-requirements.js'
import { writePrivileges } from './privileges.js'
import type { RestCheck } from './rest-requirements.js'

/** The routes of `?action=evaluate` (DataHub Cloud's `/gms/test`, and the two aliases served here). */
const ROUTES = new Set(['/gms/test', '/test', '/api/gms/test'])

type Row = Record<string, unknown>

/**
 * `POST /gms/test?action=evaluate`: DataHub Cloud's resource is not open source, so the rule is
 * DataHub's for what the call does. Evaluating reads the entity (READ of its URN, as
 * `isAPIAuthorizedEntityUrns(READ)`); with `push` it also writes the entity's `testResults`
 * aspect (UPDATE of it, as an ingest of that aspect would need). Refused with the Rest.li
 * entity resource's wording.
 */
export function metadataTestCheck(
  method: string,
  route: string,
  action: string | undefined,
  body: unknown,
): RestCheck | undefined {
  if (method !== 'POST' || !ROUTES.has(route) || action !== 'evaluate') return undefined
  const row: Row = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Row) : {}
  const urn = typeof row.urn === 'string' ? row.urn : undefined
  // No URN: the route answers its own 400.
  if (urn === undefined) return undefined
  const requirements: Requirement[] = readOfEach([urn])
  if (requirements.length === 0) return undefined
  if (row.push === true) {
    const type = parseUrn(urn).entityType
    for (const anyOf of writePrivileges(type, 'testResults', 'UPSERT'))
      requirements.push({ anyOf, resource: urn })
  }
  return {
    requirements,
    message:
      row.push === true
        ? `User is unauthorized to modify entity: ${urn}`
        : `User is unauthorized to get entity ${urn}`,
  }
}
