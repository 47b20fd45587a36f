import { readPrivileges } from './openapi-requirements.js'
import type { RestCheck } from './rest-requirements.js'

/**
 * DataHub's `BatchIngestionRunResource`: `describe` needs READ of the entity group
 * (`isAPIAuthorized(ENTITY, READ)`, a platform-wide grant) and answers "User is unauthorized to
 * get entity"; `list` is served to any authenticated caller, as DataHub does; `rollback` is
 * checked with the writes (`restCheck`).
 */
export function runsCheck(method: string, route: string, action: string | undefined): RestCheck | undefined {
  if (method !== 'POST' || route !== '/runs' || action !== 'describe') return undefined
  return {
    requirements: [{ anyOf: [...readPrivileges(undefined)] }],
    message: 'User is unauthorized to get entity',
  }
}
