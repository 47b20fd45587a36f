import { join } from 'node:path'
import type { Config } from '@catalog/config'
import { UnavailableError } from '@catalog/core'
import type { SearchIndex, SearchSchema } from '@catalog/search'
import type { WarnLogger } from '@catalog/search-meilisearch'
import { WorkerSearchIndex } from '@catalog/search-sqlite'

/**
 * Opens the search index the configuration names: the one place an adapter is picked. The
 * embedded index runs in a worker thread and builds its schema from the default registry there.
 * Meilisearch is checked at once (reachable, key accepted, index and settings in place): a
 * start against an unreachable server fails with an `UnavailableError` naming MEILI_URL.
 */
export async function openSearchIndex(
  config: Config,
  schema: SearchSchema,
  log?: WarnLogger,
): Promise<SearchIndex> {
  switch (config.CATALOG_SEARCH) {
    case 'sqlite':
      // On its own thread: indexing and heavy queries never hold the event loop.
      return WorkerSearchIndex.open({
        file: join(config.CATALOG_DATA_DIR, 'search.db'),
        queryBudgetMs: config.CATALOG_SEARCH_TIME_BUDGET_MS,
      })
    case 'meilisearch': {
      if (!config.MEILI_URL) throw new UnavailableError('CATALOG_SEARCH=meilisearch needs MEILI_URL')
      // Loaded only when configured: the embedded default never pays for the client.
      const { MeilisearchSearchIndex } = await import('@catalog/search-meilisearch')
      return MeilisearchSearchIndex.open({
        url: config.MEILI_URL,
        ...(config.MEILI_KEY ? { apiKey: config.MEILI_KEY } : {}),
        index: config.MEILI_INDEX,
        schema,
        ...(log ? { log } : {}),
      })
    }
  }
}
