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
  build: async (app) => {
    const store = await openStore(config)
    await app.register(gateway, {
      backends: { kind: 'embedded', metadata: createMetadataServices(new Registry(), store) },
    })
    return () => store.close()
  },
})
