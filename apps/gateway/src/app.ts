import { type CatalogServer, healthRoutes } from '@catalog/http-kit'
import { type MetadataServices, metadataService } from '@catalog/metadata-service'
import { proxyRoutes, type Service } from './proxy.js'
import { configRoute } from './routes/config.js'

/** The services answer in this process (the default). */
export interface EmbeddedBackends {
  readonly kind: 'embedded'
  readonly metadata: MetadataServices
}

/** The services run apart; the gateway forwards over HTTP. */
export interface RemoteBackends {
  readonly kind: 'remote'
  readonly targets: Readonly<Record<Service, string>>
}

export interface GatewayOptions {
  readonly backends: EmbeddedBackends | RemoteBackends
}

/**
 * The public face of the catalog: `/config`, health, and every REST route, answered in
 * process or forwarded to the owning service.
 */
export async function gateway(app: CatalogServer, opts: GatewayOptions): Promise<void> {
  const backends = opts.backends
  await app.register(configRoute)
  if (backends.kind === 'embedded') {
    await app.register(healthRoutes, { ready: async () => (await backends.metadata.store.head()) >= 0 })
    await app.register(metadataService, { services: backends.metadata })
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
}
