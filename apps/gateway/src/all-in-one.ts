import { bootstrapAuth, storeActiveCheck } from '@catalog/auth'
import { configOrExit } from '@catalog/config'
import { Registry } from '@catalog/core'
import { runServer } from '@catalog/http-kit'
import { createMetadataServices, lineageLimitsFrom, openStore } from '@catalog/metadata-service'
import {
  createSearchServices,
  openSearchIndex,
  SearchSchema,
  storeChangeSource,
} from '@catalog/search-service'
import { gateway } from './app.js'

/** `npm start`: gateway, metadata service and search service in one process, embedded storage. */
const config = configOrExit()
await runServer(config, {
  name: 'catalog',
  port: config.PORT,
  describe: { dataDir: config.CATALOG_DATA_DIR, store: config.CATALOG_STORE, search: config.CATALOG_SEARCH },
  build: async (app, log) => {
    const store = await openStore(config)
    const registry = new Registry()
    // Search: its own index in the data dir, kept in step with the store's change log. At start
    // only the log's tail (after the index's durable cursor) is applied; afterwards every
    // acknowledged write is applied before the ingest call returns (read-your-writes).
    const schema = new SearchSchema(registry)
    const index = await openSearchIndex(config, schema)
    const search = createSearchServices(schema, index, storeChangeSource(store), { log })
    const before = await index.cursor()
    const cursor = await search.sync.catchUp()
    log.info(
      { from: before, to: cursor },
      `search index caught up: ${cursor - before} change-log entries applied`,
    )
    search.sync.start(1000)
    const metadata = createMetadataServices(registry, store, async (seq) => search.sync.noteWrite(seq), {
      lineage: lineageLimitsFrom(config),
    })
    // First start: a signing secret and <data dir>/admin.token (its path is logged).
    const enabled = config.CATALOG_AUTH === 'on'
    const { tokens } = await bootstrapAuth({
      dataDir: config.CATALOG_DATA_DIR,
      ...(config.CATALOG_TOKEN_SECRET ? { configuredSecret: config.CATALOG_TOKEN_SECRET } : {}),
      enabled,
      isActive: storeActiveCheck(store),
      ingest: (proposals, actor) => metadata.ingest.ingestProposals(proposals, actor),
      log,
    })
    await app.register(gateway, {
      backends: { kind: 'embedded', metadata, search },
      auth: { enabled, tokens },
    })
    return async () => {
      await search.sync.stop()
      await index.close()
      await store.close()
    }
  },
})
