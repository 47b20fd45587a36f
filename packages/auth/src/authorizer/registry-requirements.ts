import type { RestCheck } from './rest-requirements.js'

const PREFIX = '/openapi/v1/registry/models/'

/**
 * DataHub's entity registry API (`EntityRegistryController`): MANAGE_SYSTEM_OPERATIONS for
 * every read, whether or not REST reads are checked (`isAPIOperationsAuthorized`).
 */
export function registryModelsCheck(method: string, route: string, actor: string): RestCheck | undefined {
  if ((method !== 'GET' && method !== 'HEAD') || !route.startsWith(PREFIX)) return undefined
  return {
    requirements: [{ anyOf: ['MANAGE_SYSTEM_OPERATIONS'] }],
    message: `${actor} is not authorized to get entity models`,
  }
}
