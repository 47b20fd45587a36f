import { join } from 'node:path'
import type { Config } from '@catalog/config'
import type { MetadataStore } from '@catalog/store'
import { Neo4jMetadataStore } from '@catalog/store-neo4j'
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
      return openNeo4j(config)
  }
}

/** Every operation of the port, checked against the type so the list cannot fall behind it. */
const PORT_METHODS = [
  'write',
  'latest',
  'version',
  'exists',
  'changes',
  'head',
  'scan',
  'restate',
  'close',
  'relationships',
  'lineage',
  'timeseries',
  'timeseriesCounts',
  'truncateTimeseries',
  'timeseriesSizes',
  'taskNodeId',
  'createTask',
  'updateTask',
  'task',
  'tasksInState',
] as const satisfies ReadonlyArray<keyof MetadataStore>
const portComplete: Exclude<keyof MetadataStore, (typeof PORT_METHODS)[number]> extends never ? true : never =
  true

/**
 * Connects to Neo4j (failing at start with an error naming the URI when it does not answer)
 * and refuses to serve with an adapter that lacks operations of the port.
 */
async function openNeo4j(config: Config): Promise<MetadataStore> {
  if (!config.NEO4J_URI) throw new Error('CATALOG_STORE=neo4j needs NEO4J_URI')
  const store = await Neo4jMetadataStore.open({
    uri: config.NEO4J_URI,
    user: config.NEO4J_USER,
    ...(config.NEO4J_PASSWORD ? { password: config.NEO4J_PASSWORD } : {}),
    ...(config.NEO4J_DATABASE ? { database: config.NEO4J_DATABASE } : {}),
  })
  const candidate: Partial<Record<(typeof PORT_METHODS)[number], unknown>> = store
  const missing = PORT_METHODS.filter((m) => typeof candidate[m] !== 'function')
  if (!portComplete || missing.length > 0) {
    await store.close()
    throw new Error(`CATALOG_STORE=neo4j: the Neo4j adapter does not implement ${missing.join(', ')} yet`)
  }
  return store as unknown as MetadataStore
}
