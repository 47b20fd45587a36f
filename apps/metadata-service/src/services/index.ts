import type { Registry } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import { type AfterWrite, IngestService } from './ingest-service.js'
import { ReadService } from './read-service.js'

/** The metadata service's domain services, shared by REST routes and (in one process) GraphQL. */
export interface MetadataServices {
  readonly registry: Registry
  readonly store: MetadataStore
  readonly ingest: IngestService
  readonly reads: ReadService
}

export function createMetadataServices(
  registry: Registry,
  store: MetadataStore,
  afterWrite?: AfterWrite,
): MetadataServices {
  return {
    registry,
    store,
    ingest: new IngestService(registry, store, afterWrite),
    reads: new ReadService(registry, store),
  }
}
