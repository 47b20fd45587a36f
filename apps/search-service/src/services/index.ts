import { DocumentDeriver, RequestBuilder, type SearchIndex, type SearchSchema } from '@catalog/search'
import type { Logger } from 'pino'
import type { ChangeSource } from './change-source.js'
import { IndexSync } from './index-sync.js'
import { SearchService } from './search-service.js'

/** The search service's parts, shared by its routes, the gateway and the sync. */
export interface SearchServices {
  readonly schema: SearchSchema
  readonly index: SearchIndex
  readonly sync: IndexSync
  readonly search: SearchService
}

/** Wires the index, the change-log sync and the request handling together. */
export function createSearchServices(
  schema: SearchSchema,
  index: SearchIndex,
  source: ChangeSource,
  options: { readonly log?: Logger; readonly batchSize?: number } = {},
): SearchServices {
  const sync = new IndexSync(index, source, new DocumentDeriver(schema), options)
  return {
    schema,
    index,
    sync,
    search: new SearchService(index, new RequestBuilder(schema), () => sync.fresh()),
  }
}
