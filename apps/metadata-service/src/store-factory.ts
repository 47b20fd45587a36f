import { join } from 'node:path'
import type { Config } from '@catalog/config'
import type { MetadataStore } from '@catalog/store'
import { SqliteMetadataStore } from '@catalog/store-sqlite'

/** Opens the metadata store the configuration names: the one place an adapter is picked. */
export async function openStore(config: Config): Promise<MetadataStore> {
  switch (config.CATALOG_STORE) {
    case 'sqlite':
      return new SqliteMetadataStore({
        file: join(config.CATALOG_DATA_DIR, 'metadata.db'),
        durability: config.CATALOG_DURABILITY,
      })
    case 'neo4j':
      throw new Error('CATALOG_STORE=neo4j: the Neo4j adapter is not built yet')
  }
}
