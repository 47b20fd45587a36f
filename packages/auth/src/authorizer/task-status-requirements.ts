import { Privilege } from './privileges.js'
import type { RestCheck } from './rest-requirements.js'

/**
 * DataHub's OpenAPI `GET /openapi/operations/elasticSearch/getTaskStatus`: GET_ES_TASK_STATUS,
 * whether or not reads are checked, refused with DataHub's message.
 */
export function taskStatusCheck(method: string, route: string, actor: string): RestCheck | undefined {
  if (method !== 'GET' || route !== '/openapi/operations/elasticSearch/getTaskStatus') return undefined
  return {
    requirements: [{ anyOf: [Privilege.GET_ES_TASK_STATUS] }],
    message: `${actor} is not authorized to get ElasticSearch task status`,
  }
}
