import type { SearchResultValue } from '../schemas/search.js'

/** The User-Agent prefix of DataHub's Python SDK and CLI (rest_emitter.py, `_get_user_agent_string`). */
const DATAHUB_CLIENT = 'DataHub-Client/'

/**
 * Whether the caller is DataHub's own Python client, which reads a search's `entities` as
 * DataHub's `SearchEntity` records (`entities[].entity`) where the interface spec fixes them as
 * URNs (`get_domain_urn_by_name`, `get_data_product_urn_by_name`, the domain transformers).
 */
export function wantsSearchEntities(userAgent: string | undefined): boolean {
  return userAgent?.startsWith(DATAHUB_CLIENT) === true
}

/** The result with `entities` as DataHub's `SearchEntity` records: `{entity, matchedFields}`. */
export function withSearchEntities(result: SearchResultValue) {
  return {
    ...result,
    entities: result.entities.map((urn, i) => ({
      entity: urn,
      matchedFields: result.metadata.matches[i]?.matchedFields ?? [],
    })),
  }
}
