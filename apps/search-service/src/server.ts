import {
  authorizeRest,
  bearerAuth,
  httpActiveCheck,
  httpAuthorizer,
  loadOrCreateSecret,
  TokenService,
} from '@catalog/auth'
import { configOrExit } from '@catalog/config'
import { Registry } from '@catalog/core'
import { apiDocs, CATALOG_VERSION, gauge, healthRoutes, runServer } from '@catalog/http-kit'
import { SearchSchema } from '@catalog/search'
import { searchService } from './app.js'
import { openSearchIndex } from './index-factory.js'
import { httpChangeSource } from './services/change-source.js'
import { createSearchServices } from './services/index.js'

/** How often the search service reads the metadata change log when it runs alone. */
const POLL_MS = 200

const config = configOrExit()
const metadata = config.CATALOG_METADATA_URL ?? `http://127.0.0.1:${config.CATALOG_METADATA_PORT}`
await runServer(config, {
  name: 'search-service',
  port: config.CATALOG_SEARCH_PORT,
  describe: { dataDir: config.CATALOG_DATA_DIR, search: config.CATALOG_SEARCH, metadata },
  build: async (app, log, metrics) => {
    // Run alone, this service verifies bearer tokens itself (the secret is shared through
    // CATALOG_TOKEN_SECRET or the data dir) and reads the change log with a service token.
    const enabled = config.CATALOG_AUTH === 'on'
    const { secret } = loadOrCreateSecret(config.CATALOG_DATA_DIR, config.CATALOG_TOKEN_SECRET)
    const tokens = new TokenService(secret, httpActiveCheck(metadata))
    const source = httpChangeSource(metadata, {
      authorization: () => (enabled ? `Bearer ${tokens.serviceToken()}` : undefined),
    })
    const registry = new Registry()
    const schema = new SearchSchema(registry)
    const index = await openSearchIndex(config, schema)
    const services = createSearchServices(schema, index, source, { log })
    services.sync.start(POLL_MS)
    gauge(
      metrics,
      'catalog_search_index_cursor',
      'change-log entries applied to the search index',
      async () => (await services.sync.stats()).cursor,
    )
    await app.register(apiDocs, { title: 'Search service', version: CATALOG_VERSION })
    await app.register(bearerAuth, { enabled, tokens })
    // Searches are authorized here as in one process, against the metadata service's policies.
    if (enabled)
      await app.register(authorizeRest, {
        authorizer: httpAuthorizer(metadata, registry, () => `Bearer ${tokens.serviceToken()}`),
        reads: config.CATALOG_REST_API_AUTHORIZATION === 'on',
      })
    await app.register(healthRoutes, { ready: async () => (await index.cursor()) >= 0 })
    await app.register(searchService, { services })
    return async () => {
      await services.sync.stop()
      await index.close()
    }
  },
})
