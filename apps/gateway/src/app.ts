import {
  authorizeRest,
  bearerAuth,
  credentialReadGuard,
  httpActorStatus,
  inactiveActorGuard,
  storeAuthorizer,
  type TokenService,
} from '@catalog/auth'
import { Registry } from '@catalog/core'
import {
  apiDocs,
  CATALOG_VERSION,
  type CatalogServer,
  forwardedApiDocs,
  healthRoutes,
} from '@catalog/http-kit'
import {
  authServiceOptions,
  authServiceRoutes,
  type MetadataServices,
  metadataService,
} from '@catalog/metadata-service'
import { type SearchServices, searchService } from '@catalog/search-service'
import type { FastifyRequest } from 'fastify'
import { remoteAuthorizer } from './graphql/authorize-remote.js'
import {
  GRAPHQL_PATH,
  graphqlRoutes,
  HttpMetadataClient,
  HttpSearchClient,
  InProcessMetadataClient,
  InProcessSearchClient,
} from './graphql/index.js'
import { internalGuard } from './plugins/internal-guard.js'
import { webUi } from './plugins/web-ui.js'
import { proxyRoutes, type Service } from './proxy.js'
import { configRoute } from './routes/config.js'

/** The services answer in this process (the default). */
export interface EmbeddedBackends {
  readonly kind: 'embedded'
  readonly metadata: MetadataServices
  /** Search, browse and autocomplete (absent: those actions answer 404). */
  readonly search?: SearchServices
}

/** The services run apart; the gateway forwards over HTTP. */
export interface RemoteBackends {
  readonly kind: 'remote'
  readonly targets: Readonly<Record<Service, string>>
}

/** Bearer-token authentication (DESIGN.md §7). */
export interface GatewayAuth {
  /** False for CATALOG_AUTH=off: every request acts as the root user. */
  readonly enabled: boolean
  /** Verifies tokens (required when enabled) and mints them for GraphQL `createAccessToken`. */
  readonly tokens?: TokenService
  /** CATALOG_REST_API_AUTHORIZATION: REST reads and searches checked too (default true, as DataHub). */
  readonly restApiAuthorization?: boolean
  /** CATALOG_SESSION_TOKEN_TTL_MS: lifetime of the session tokens `/auth/generateSessionTokenForUser` mints. */
  readonly sessionTtlMs?: number
}

export interface GatewayOptions {
  readonly backends: EmbeddedBackends | RemoteBackends
  /** Absent: auth off, and GraphQL cannot mint tokens. */
  readonly auth?: GatewayAuth
}

/**
 * The public face of the catalog: `/config`, health, and every REST route, answered in
 * process or forwarded to the owning service.
 */
export async function gateway(app: CatalogServer, opts: GatewayOptions): Promise<void> {
  const backends = opts.backends
  // The docs come first so they see every route registered after them.
  if (backends.kind === 'embedded') {
    await app.register(apiDocs, { title: 'DataHub-compatible catalog', version: CATALOG_VERSION })
  } else {
    await app.register(forwardedApiDocs, {
      title: 'DataHub-compatible catalog',
      version: CATALOG_VERSION,
      sources: [backends.targets.metadata, backends.targets.search],
    })
  }
  await app.register(bearerAuth, { enabled: opts.auth?.enabled ?? false, tokens: opts.auth?.tokens })
  await app.register(internalGuard)
  await app.register(webUi)
  // REST calls and GraphQL mutations checked against DataHub policies (split mode: the metadata service checks REST).
  const authorizer =
    backends.kind === 'embedded' && opts.auth?.enabled ? storeAuthorizer(backends.metadata.store) : undefined
  if (authorizer) {
    await app.register(authorizeRest, { authorizer, reads: opts.auth?.restApiAuthorization ?? true })
    // Native users' credentials are left out of every answer unless the caller may manage them.
    await app.register(credentialReadGuard, { authorizer })
    if (backends.kind === 'embedded') {
      const exempt = opts.auth?.tokens?.systemClientActor ? [opts.auth.tokens.systemClientActor] : []
      await app.register(inactiveActorGuard, { store: backends.metadata.store, exempt })
    }
  }
  // Split mode: the metadata service refuses inactive users on REST; GraphQL is answered here.
  if (backends.kind === 'remote' && opts.auth?.enabled && opts.auth.tokens) {
    const tokens = opts.auth.tokens
    await app.register(inactiveActorGuard, {
      status: httpActorStatus(backends.targets.metadata, () => `Bearer ${tokens.serviceToken()}`),
      exempt: tokens.systemClientActor ? [tokens.systemClientActor] : [],
      routes: [GRAPHQL_PATH],
    })
  }
  await app.register(configRoute)
  if (backends.kind === 'embedded') {
    await app.register(healthRoutes, { ready: async () => (await backends.metadata.store.head()) >= 0 })
    await app.register(metadataService, { services: backends.metadata })
    // DataHub GMS's /auth/* endpoints for its frontend (split mode: served by the metadata service).
    if (opts.auth?.tokens)
      await app.register(authServiceRoutes, authServiceOptions(opts.auth, backends.metadata))
    if (backends.search) await app.register(searchService, { services: backends.search })
  } else {
    await app.register(healthRoutes, {
      ready: async () => {
        const answers = await Promise.all(
          Object.values(backends.targets).map((t) =>
            fetch(`${t}/health`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok),
          ),
        )
        return answers.every(Boolean)
      },
    })
    await app.register(proxyRoutes, { targets: backends.targets })
  }
  const registry = backends.kind === 'embedded' ? backends.metadata.registry : new Registry()
  // Split mode: the metadata service checks REST; GraphQL is checked here, reading the policies from it.
  const graphqlAuthorizer =
    authorizer ??
    (backends.kind === 'remote' && opts.auth?.enabled && opts.auth.tokens
      ? remoteAuthorizer(backends.targets.metadata, registry, opts.auth.tokens)
      : undefined)
  // Split mode: GraphQL calls the services as the acting user with a service token (checked here, not again).
  const serviceAuthorization = (request: FastifyRequest) =>
    opts.auth?.enabled && opts.auth.tokens && request.actor
      ? `Bearer ${opts.auth.tokens.serviceToken(request.actor)}`
      : request.headers.authorization
  const embedded = backends.kind === 'embedded' ? new InProcessMetadataClient(backends.metadata) : undefined
  const embeddedSearch =
    backends.kind === 'embedded' && backends.search ? new InProcessSearchClient(backends.search) : undefined
  await app.register(graphqlRoutes, {
    registry,
    authEnabled: opts.auth?.enabled ?? false,
    clientFor: (request) =>
      embedded ??
      new HttpMetadataClient(
        (backends as RemoteBackends).targets.metadata,
        registry,
        serviceAuthorization(request),
      ),
    searchFor: (request) =>
      backends.kind === 'embedded'
        ? embeddedSearch
        : new HttpSearchClient(backends.targets.search, serviceAuthorization(request)),
    ...(opts.auth?.tokens ? { tokens: opts.auth.tokens } : {}),
    ...(graphqlAuthorizer ? { authorizer: graphqlAuthorizer } : {}),
  })
}
