import { join } from 'node:path'
import type { Config } from '@catalog/config'
import type { MetadataStore } from '@catalog/store'
import { SqliteMetadataStore } from '@catalog/store-sqlite'

/** The embedded store's SQLite file, when the configuration names the embedded store. */
export function embeddedStoreFile(config: Config): string | undefined {
  return config.CATALOG_STORE === 'sqlite' ? join(config.CATALOG_DATA_DIR, 'metadata.db') : undefined
}

/** Opens the metadata store the configuration names: the one place an adapter is picked. */
export async function openStore(
  config: Config,
  log?: { warn: (message: string) => void },
): Promise<MetadataStore> {
  switch (config.CATALOG_STORE) {
    case 'sqlite': {
      const store = new SqliteMetadataStore({
        file: embeddedStoreFile(config) as string,
        durability: config.CATALOG_DURABILITY,
        ...(log ? { onMigrate: (note: string) => log.warn(note) } : {}),
      })
      // The writer thread that takes a large write off the event loop starts with the server, so
      // that the first large write does not share the CPU with its start. The large-aspect worker
      // starts when a large body is announced (see `metadataService`).
      store.warmWriterThread()
      return store
    }
    case 'neo4j':
      return openNeo4j(config)
  }
}

/**
 * Connects to Neo4j, failing at start with an error naming the URI when it does not answer.
 * The driver is loaded only here: the embedded default never pays for it.
 */
async function openNeo4j(config: Config): Promise<MetadataStore> {
  if (!config.NEO4J_URI) throw new Error('CATALOG_STORE=neo4j needs NEO4J_URI')
  const { Neo4jMetadataStore } = await import('@catalog/store-neo4j')
  return Neo4jMetadataStore.open({
    uri: config.NEO4J_URI,
    user: config.NEO4J_USER,
    ...(config.NEO4J_PASSWORD ? { password: config.NEO4J_PASSWORD } : {}),
    ...(config.NEO4J_DATABASE ? { database: config.NEO4J_DATABASE } : {}),
  })
}
