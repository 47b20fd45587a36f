import { bootstrapAuth, storeActiveCheck } from '@catalog/auth'
import { loadConfig } from '@catalog/config'
import { Registry } from '@catalog/core'
import { runServer } from '@catalog/http-kit'
import { createMetadataServices, openStore } from '@catalog/metadata-service'
import { gateway } from './app.js'

/** `npm start`: gateway, metadata service and search service in one process, embedded storage. */
const config = loadConfig()
await runServer(config, {
  name: 'catalog',
  port: config.PORT,
  describe: { dataDir: config.CATALOG_DATA_DIR, store: config.CATALOG_STORE, search: config.CATALOG_SEARCH },
  build: async (app, log) => {
    const store = await openStore(config)
    const metadata = createMetadataServices(new Registry(), store)
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
      backends: { kind: 'embedded', metadata },
      auth: { enabled, tokens },
    })
    return () => store.close()
  },
})
