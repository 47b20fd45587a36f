import { join } from 'node:path'
import type { Config } from '@catalog/config'
import type { SearchIndex, SearchSchema } from '@catalog/search'
import { SqliteSearchIndex } from '@catalog/search-sqlite'

/** Opens the search index the configuration names: the one place an adapter is picked. */
export async function openSearchIndex(config: Config, schema: SearchSchema): Promise<SearchIndex> {
  switch (config.CATALOG_SEARCH) {
    case 'sqlite':
      return new SqliteSearchIndex({ file: join(config.CATALOG_DATA_DIR, 'search.db'), schema })
    case 'meilisearch':
      throw new Error('CATALOG_SEARCH=meilisearch: the Meilisearch adapter is not built yet')
  }
}
