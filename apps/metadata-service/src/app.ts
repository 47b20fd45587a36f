import type { Registry } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import type { MetadataStore } from '@catalog/store'
import { aspectRoutes } from './routes/aspects.js'
import { changeRoutes } from './routes/changes.js'
import { entityRoutes } from './routes/entities.js'
import { entityV2Routes } from './routes/entities-v2.js'
import { type AfterWrite, IngestService } from './services/ingest-service.js'
import { ReadService } from './services/read-service.js'

export interface MetadataServiceOptions {
  readonly store: MetadataStore
  readonly registry: Registry
  /** Awaited after every durable write (the one-process mode brings search up to date here). */
  readonly afterWrite?: AfterWrite
}

/**
 * The metadata service as a fastify plugin: entities, aspect versions, time-series aspects,
 * relationship edges and the change log. `server.ts` runs it alone; the gateway embeds it
 * in the one-process mode.
 */
export async function metadataService(app: CatalogServer, opts: MetadataServiceOptions): Promise<void> {
  const ingest = new IngestService(opts.registry, opts.store, opts.afterWrite)
  const reads = new ReadService(opts.registry, opts.store)
  await app.register(aspectRoutes, { ingest, reads })
  await app.register(entityRoutes, { ingest, reads })
  await app.register(entityV2Routes, { reads })
  await app.register(changeRoutes, { store: opts.store })
}
