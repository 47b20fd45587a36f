import type { Registry } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import { DeleteReferencesService } from './delete-references-service.js'
import { EntityAdminService } from './entity-admin-service.js'
import type { EntitySearch } from './entity-search.js'
import { IncidentSummaries } from './incidents-summary.js'
import { type AfterWrite, IngestService } from './ingest-service.js'
import { type LineageLimits, LineageService } from './lineage-service.js'
import { MetadataTestsService } from './metadata-tests-service.js'
import type { ProgressLog } from './operations-restore.js'
import { OperationsService } from './operations-service.js'
import { ReadService } from './read-service.js'
import { RunsService } from './runs-service.js'
import { TaskRunner } from './tasks-service.js'
import { TimelineService } from './timeline/timeline-service.js'
import { TimeseriesService } from './timeseries-service.js'
import { UsageService } from './usage-service.js'
import { VersionSets } from './version-sets.js'

/** The metadata service's domain services, shared by REST routes and (in one process) GraphQL. */
export interface MetadataServices {
  readonly registry: Registry
  readonly store: MetadataStore
  readonly ingest: IngestService
  readonly reads: ReadService
  readonly lineage: LineageService
  readonly timeseries: TimeseriesService
  readonly tasks: TaskRunner
  readonly operations: OperationsService
  readonly metadataTests: MetadataTestsService
  readonly admin: EntityAdminService
  readonly references: DeleteReferencesService
  readonly runs: RunsService
  readonly timeline: TimelineService
  readonly usage: UsageService
  /** The search index, for the OpenAPI scroll's queries and filters; absent without a search service. */
  readonly search?: EntitySearch
}

/** Optional settings of the services (from the config at boot). */
export interface MetadataServicesOptions {
  /** Bounds of multi-hop lineage; `DEFAULT_LINEAGE_LIMITS` when absent. */
  readonly lineage?: LineageLimits
  /** Where long operations (restoreIndices) report their progress. */
  readonly log?: ProgressLog
  /** The search index (in-process or over HTTP), for the OpenAPI scroll's queries and filters. */
  readonly search?: EntitySearch
}

export function createMetadataServices(
  registry: Registry,
  store: MetadataStore,
  afterWrite?: AfterWrite,
  options: MetadataServicesOptions = {},
): MetadataServices {
  const ingest = new IngestService(registry, store, afterWrite, [
    new IncidentSummaries(registry, store),
    new VersionSets(registry, store),
  ])
  const tasks = new TaskRunner(store)
  return {
    registry,
    store,
    ingest,
    timeseries: new TimeseriesService(registry, store),
    tasks,
    operations: new OperationsService(registry, store, tasks, afterWrite, options.log),
    metadataTests: new MetadataTestsService(registry, store, ingest),
    reads: new ReadService(registry, store),
    lineage: new LineageService(registry, store, options.lineage),
    admin: new EntityAdminService(registry, store, ingest),
    references: new DeleteReferencesService(registry, store, ingest),
    runs: new RunsService(registry, store, ingest),
    timeline: new TimelineService(store),
    usage: new UsageService(registry, store, ingest),
    ...(options.search ? { search: options.search } : {}),
  }
}
