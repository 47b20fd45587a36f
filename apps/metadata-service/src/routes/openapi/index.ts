import { type CatalogServer, jsonBodyParser } from '@catalog/http-kit'
import type { MetadataServices } from '../../services/index.js'
import { OpenApiEntityService } from '../../services/openapi-entity-service.js'
import { OpenApiScrollService } from '../../services/openapi-scroll-service.js'
import { RegistrySpecs } from '../../services/registry-specs.js'
import { RelationshipScrollService } from '../../services/relationship-scroll-service.js'
import { WriteTraceService } from '../../services/write-trace-service.js'
import { openApiDocsRoutes } from './api-docs.js'
import { openApiCompatRoutes } from './compat.js'
import { openApiEntityBatchRoutes } from './entity-batch.js'
import { openApiEntityScrollRoutes } from './entity-scroll.js'
import { openApiEntityUrnRoutes } from './entity-urn.js'
import { openApiRegistryRoutes } from './registry.js'
import { openApiRelationshipScrollRoutes } from './relationship-scroll.js'

/**
 * DataHub's OpenAPI surface that its Python SDK uses from GMS 1.0.1 on: `/openapi/v3/entity`
 * (writes through the ingest service, reads from the store), the v2 batch get, relationships
 * v1 and write traces.
 */
export async function openApiRoutes(
  app: CatalogServer,
  { services }: { readonly services: MetadataServices },
): Promise<void> {
  const entities = new OpenApiEntityService(
    services.registry,
    services.store,
    services.ingest,
    services.admin,
  )
  const scroll = new OpenApiScrollService(services.store, entities, services.search)
  const traces = new WriteTraceService(services.registry, services.store)
  // DataHub accepts JSON Patch bodies under their own content type; a large one parses off the event loop.
  app.addContentTypeParser('application/json-patch+json', jsonBodyParser(app))
  await app.register(openApiEntityBatchRoutes, { entities })
  await app.register(openApiEntityScrollRoutes, { scroll })
  await app.register(openApiEntityUrnRoutes, { entities })
  await app.register(openApiCompatRoutes, { entities, lineage: services.lineage, traces })
  await app.register(openApiDocsRoutes, { registry: services.registry })
  await app.register(openApiRegistryRoutes, { specs: new RegistrySpecs(services.registry) })
  await app.register(openApiRelationshipScrollRoutes, {
    relationships: new RelationshipScrollService(services.registry, services.store),
  })
}
