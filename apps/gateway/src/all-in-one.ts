import { bootstrapAuth, storeActiveCheck } from '@catalog/auth'
import { configOrExit, systemClientOf } from '@catalog/config'
import { Registry } from '@catalog/core'
import { gauge, runServer } from '@catalog/http-kit'
import {
  createMetadataServices,
  embeddedStoreFile,
  lineageLimitsFrom,
  openStore,
} from '@catalog/metadata-service'
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
  build: async (app, log, metrics) => {
    const store = await openStore(config, log)
    const registry = new Registry()
    // Search: its own index in the data dir, kept in step with the store's change log. At start
    // only the log's tail (after the index's durable cursor) is applied; afterwards every
    // acknowledged write is applied before the ingest call returns (read-your-writes).
    const schema = new SearchSchema(registry)
    const index = await openSearchIndex(config, schema)
    // With the embedded store, the embedded index's thread reads the change log from the store's
    // file on its own connection: its pages are never built on this thread's heap (~5 MB per
    // 1,000 new datasets) nor copied to the index's thread.
    const storeFile = embeddedStoreFile(config)
    const search = createSearchServices(
      schema,
      index,
      storeChangeSource(store, storeFile ? { storeFile } : {}),
      { log },
    )
    const before = await index.cursor()
    const cursor = await search.sync.catchUp()
    log.info(
      { from: before, to: cursor },
      `search index caught up: ${cursor - before} change-log entries applied`,
    )
    search.sync.start(1000)
    gauge(metrics, 'catalog_changelog_head', 'sequence number of the newest change-log entry', () =>
      store.head(),
    )
    gauge(
      metrics,
      'catalog_search_index_cursor',
      'change-log entries applied to the search index',
      async () => (await search.sync.stats()).cursor,
    )
    gauge(
      metrics,
      'catalog_search_changelog_lag',
      'change-log entries not yet in the search index',
      async () => (await store.head()) - (await search.sync.stats()).cursor,
    )
    const metadata = createMetadataServices(registry, store, async (seq) => search.sync.noteWrite(seq), {
      lineage: lineageLimitsFrom(config),
      log,
      search: search.search,
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
      ...systemClientOf(config),
    })
    await app.register(gateway, {
      backends: { kind: 'embedded', metadata, search },
      auth: {
        enabled,
        tokens,
        restApiAuthorization: config.CATALOG_REST_API_AUTHORIZATION === 'on',
        sessionTtlMs: config.CATALOG_SESSION_TOKEN_TTL_MS,
      },
    })
    return async () => {
      await search.sync.stop()
      await index.close()
      await store.close()
    }
  },
})
