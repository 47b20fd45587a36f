import { LARGE_ASPECT_CHARS, warmLargeAspectWorker } from '@catalog/core'
import { type CatalogServer, warmOnLargeBody } from '@catalog/http-kit'
import { aspectRoutes } from './routes/aspects.js'
import { changeRoutes } from './routes/changes.js'
import { entityRoutes } from './routes/entities.js'
import { entitiesDeleteAllRoutes } from './routes/entities-delete-all.js'
import { entityV2Routes } from './routes/entities-v2.js'
import { entityActionRoutes } from './routes/entity-actions.js'
import { internalSchemaFieldRoutes } from './routes/internal-schema-field.js'
import { metadataTestRoutes } from './routes/metadata-tests.js'
import { openApiRoutes } from './routes/openapi/index.js'
import { operationRoutes } from './routes/operations.js'
import { operationsTaskRoutes } from './routes/operations-tasks.js'
import { relationshipRoutes } from './routes/relationships.js'
import { relationshipDeleteRoutes } from './routes/relationships-delete.js'
import { runRoutes } from './routes/runs.js'
import { timelineRoutes } from './routes/timeline.js'
import { timeseriesRoutes } from './routes/timeseries.js'
import { usageRoutes } from './routes/usage.js'
import type { MetadataServices } from './services/index.js'

export interface MetadataServiceOptions {
  readonly services: MetadataServices
}

/**
 * The metadata service as a fastify plugin: entities, aspect versions, time-series aspects,
 * relationship edges and the change log. `server.ts` runs it alone; the gateway embeds it
 * in the one-process mode.
 */
export async function metadataService(
  app: CatalogServer,
  { services }: MetadataServiceOptions,
): Promise<void> {
  const { ingest, reads, store } = services
  // A body that can hold a large aspect starts the worker that validates it while it arrives.
  warmOnLargeBody(app, LARGE_ASPECT_CHARS, warmLargeAspectWorker)
  await app.register(aspectRoutes, { ingest, reads, admin: services.admin })
  await app.register(entityRoutes, { ingest, reads })
  await app.register(entityActionRoutes, { admin: services.admin, references: services.references })
  await app.register(entitiesDeleteAllRoutes, { services })
  await app.register(runRoutes, { runs: services.runs })
  await app.register(entityV2Routes, { reads })
  await app.register(changeRoutes, { store })
  await app.register(internalSchemaFieldRoutes, { store })
  await app.register(relationshipRoutes, { lineage: services.lineage, reads })
  await app.register(relationshipDeleteRoutes, { services })
  await app.register(timeseriesRoutes, { timeseries: services.timeseries })
  await app.register(timelineRoutes, { timeline: services.timeline })
  await app.register(usageRoutes, { usage: services.usage })
  await app.register(operationRoutes, { operations: services.operations, tasks: services.tasks })
  await app.register(operationsTaskRoutes, { operations: services.operations })
  await app.register(metadataTestRoutes, { metadataTests: services.metadataTests })
  await app.register(openApiRoutes, { services })
}
