import {
  authorizeRest,
  bearerAuth,
  bootstrapAuth,
  credentialReadGuard,
  inactiveActorGuard,
  storeActiveCheck,
  storeAuthorizer,
  type TokenService,
} from '@catalog/auth'
import { configOrExit, systemClientOf } from '@catalog/config'
import { Registry } from '@catalog/core'
import { apiDocs, CATALOG_VERSION, gauge, healthRoutes, runServer } from '@catalog/http-kit'
import { metadataService } from './app.js'
import { authServiceRoutes } from './routes/auth-service.js'
import { authServiceOptions } from './services/auth-service-options.js'
import { HttpEntitySearch } from './services/http-entity-search.js'
import { createMetadataServices } from './services/index.js'
import { lineageLimitsFrom } from './services/lineage-service.js'
import { searchNotifier } from './services/search-notifier.js'
import { openStore } from './store-factory.js'

const config = configOrExit()
await runServer(config, {
  name: 'metadata-service',
  port: config.CATALOG_METADATA_PORT,
  describe: { dataDir: config.CATALOG_DATA_DIR, store: config.CATALOG_STORE },
  build: async (app, log, metrics) => {
    const store = await openStore(config, log)
    gauge(metrics, 'catalog_changelog_head', 'sequence number of the newest change-log entry', () =>
      store.head(),
    )
    const enabled = config.CATALOG_AUTH === 'on'
    // Assigned by the auth bootstrap below, which itself writes through these services.
    let tokens: TokenService | undefined
    // With a search service configured, each acknowledged write asks it to index at once
    // (read-your-writes across processes); its own polling covers the rest.
    const afterWrite = config.CATALOG_SEARCH_URL
      ? searchNotifier(config.CATALOG_SEARCH_URL, {
          authorization: () => (tokens && enabled ? `Bearer ${tokens.serviceToken()}` : undefined),
          log,
        })
      : undefined
    const services = createMetadataServices(new Registry(), store, afterWrite, {
      lineage: lineageLimitsFrom(config),
      log,
      // The OpenAPI scroll's queries and filters ask the search service, with the service token.
      ...(config.CATALOG_SEARCH_URL
        ? {
            search: new HttpEntitySearch(config.CATALOG_SEARCH_URL, {
              authorization: () => (tokens && enabled ? `Bearer ${tokens.serviceToken()}` : undefined),
            }),
          }
        : {}),
    })
    // Run alone, this service verifies bearer tokens itself (and writes the admin token on first start).
    ;({ tokens } = await bootstrapAuth({
      dataDir: config.CATALOG_DATA_DIR,
      ...(config.CATALOG_TOKEN_SECRET ? { configuredSecret: config.CATALOG_TOKEN_SECRET } : {}),
      enabled,
      isActive: storeActiveCheck(store),
      ingest: (proposals, actor) => services.ingest.ingestProposals(proposals, actor),
      log,
      ...systemClientOf(config),
    }))
    await app.register(apiDocs, { title: 'Metadata service', version: CATALOG_VERSION })
    await app.register(bearerAuth, { enabled, tokens })
    if (enabled) {
      const authorizer = storeAuthorizer(store)
      await app.register(authorizeRest, { authorizer, reads: config.CATALOG_REST_API_AUTHORIZATION === 'on' })
      // Native users' credentials are left out of every answer unless the caller may manage them.
      await app.register(credentialReadGuard, { authorizer })
      const exempt = tokens.systemClientActor ? [tokens.systemClientActor] : []
      await app.register(inactiveActorGuard, { store, exempt })
    }
    await app.register(healthRoutes, { ready: async () => (await store.head()) >= 0 })
    await app.register(metadataService, { services })
    // DataHub GMS's /auth/* endpoints for its frontend.
    await app.register(
      authServiceRoutes,
      authServiceOptions({ enabled, tokens, sessionTtlMs: config.CATALOG_SESSION_TOKEN_TTL_MS }, services),
    )
    return () => store.close()
  },
})
