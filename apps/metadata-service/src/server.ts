import { bearerAuth, bootstrapAuth, storeActiveCheck } from '@catalog/auth'
import { loadConfig } from '@catalog/config'
import { Registry } from '@catalog/core'
import { healthRoutes, runServer } from '@catalog/http-kit'
import { metadataService } from './app.js'
import { createMetadataServices } from './services/index.js'
import { openStore } from './store-factory.js'

const config = loadConfig()
await runServer(config, {
  name: 'metadata-service',
  port: config.CATALOG_METADATA_PORT,
  describe: { dataDir: config.CATALOG_DATA_DIR, store: config.CATALOG_STORE },
  build: async (app, log) => {
    const store = await openStore(config)
    const services = createMetadataServices(new Registry(), store)
    // Run alone, this service verifies bearer tokens itself (and writes the admin token on first start).
    const enabled = config.CATALOG_AUTH === 'on'
    const { tokens } = await bootstrapAuth({
      dataDir: config.CATALOG_DATA_DIR,
      ...(config.CATALOG_TOKEN_SECRET ? { configuredSecret: config.CATALOG_TOKEN_SECRET } : {}),
      enabled,
      isActive: storeActiveCheck(store),
      ingest: (proposals, actor) => services.ingest.ingestProposals(proposals, actor),
      log,
    })
    await app.register(bearerAuth, { enabled, tokens })
    await app.register(healthRoutes, { ready: async () => (await store.head()) >= 0 })
    await app.register(metadataService, { services })
    return () => store.close()
  },
})
