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
  build: async (app) => {
    const store = await openStore(config)
    await app.register(healthRoutes, { ready: async () => (await store.head()) >= 0 })
    await app.register(metadataService, { services: createMetadataServices(new Registry(), store) })
    return () => store.close()
  },
})
