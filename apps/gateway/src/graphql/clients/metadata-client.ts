import { NO_RUN_ID, type SystemMetadata } from '@catalog/core'

/** The newest `lastObserved` of system metadata written by an ingestion run; null when none. */
export function lastObservedOfRuns(
  systemMetadata: ReadonlyArray<Record<string, unknown> | undefined>,
): number | null {
  let latest: number | null = null
  for (const sm of systemMetadata) {
    if (!sm || typeof sm.lastObserved !== 'number' || typeof sm.runId !== 'string' || sm.runId === NO_RUN_ID)
      continue
    if (latest === null || sm.lastObserved > latest) latest = sm.lastObserved
  }
  return latest
}

/** An aspect value as stored (a JSON object). */
export type AspectValue = Record<string, unknown>

/** The latest aspects of one entity, as the GraphQL resolvers read them. */
export interface EntityAspects {
  readonly urn: string
  readonly entityType: string
  /** Latest value of each requested aspect the entity has. */
  readonly aspects: Readonly<Record<string, AspectValue>>
  /** Whether the entity's key aspect row exists; undefined when the client cannot tell cheaply. */
  readonly exists?: boolean
}

/** A metadata change proposal (MCP), as `/aspects?action=ingestProposal` takes it. */
export interface MetadataProposal {
  readonly entityType: string
  readonly entityUrn: string
  readonly changeType: 'UPSERT' | 'CREATE' | 'DELETE' | 'PATCH'
  readonly aspectName: string
  readonly aspect?: { readonly value: string; readonly contentType: string }
  readonly systemMetadata?: SystemMetadata
  /** DataHub's MCP headers (`If-None-Match`, ...). */
  readonly headers?: Readonly<Record<string, string>>
}

/** A multi-hop lineage query (`POST /relationships?action=getLineage` body). */
export interface LineageQuery {
  readonly urn: string
  readonly direction: 'UPSTREAM' | 'DOWNSTREAM'
  /** Default 1; the metadata service cuts it to its configured cap. */
  readonly maxHops?: number
  readonly start?: number
  readonly count?: number
  readonly includeSoftDeleted?: boolean
}

/** The metadata service's lineage answer: results ordered by degree, then URN. */
export interface LineageAnswer {
  /** Hops followed at most (after the service's cap). */
  readonly maxHops: number
  readonly start: number
  readonly count: number
  readonly total: number
  /** True when a bound (hops, node or time budget) stopped the walk with more left. */
  readonly isPartial: boolean
  readonly partialReason?: string
  readonly relationships: readonly {
    readonly entity: string
    readonly type: string
    readonly degree: number
    /** One shortest path: the start, ..., the entity. */
    readonly path: readonly string[]
  }[]
}

/** A one-hop relationships query (`GET /relationships`). */
export interface RelationshipsQuery {
  readonly urn: string
  readonly direction: 'INCOMING' | 'OUTGOING' | 'UNDIRECTED'
  readonly types: readonly string[]
  readonly start?: number
  readonly count?: number
}

/** One page of an entity's relationships, ordered by type, then entity URN. */
export interface RelationshipsAnswer {
  readonly start: number
  readonly count: number
  readonly total: number
  readonly relationships: readonly { readonly type: string; readonly entity: string }[]
}

/** A time-series read (`POST /aspects?action=getTimeseriesAspectValues` body). */
export interface TimeseriesQuery {
  readonly urn: string
  readonly entity: string
  readonly aspect: string
  readonly startTimeMillis?: number
  readonly endTimeMillis?: number
  readonly limit?: number
  /** DataHub's `Filter` (legacy `criteria` form): criteria on fields of the value. */
  readonly filter?: {
    criteria: { field: string; values: string[]; condition?: string; negated?: boolean }[]
  }
}

/** DataHub's `UsageQueryResult` (`/usageStats?action=queryRange`), as stored aggregates give it. */
export interface UsageAnswer {
  readonly buckets: readonly {
    readonly bucket: number
    readonly duration: string
    readonly resource: string
    readonly metrics: AspectValue
  }[]
  readonly aggregations: AspectValue
}

/** A timeline read (`GET /openapi/v2/timeline/v1/{urn}`): DataHub's change categories, window in ms. */
export interface TimelineQuery {
  readonly urn: string
  readonly categories: readonly string[]
  /** -1: a week before `endTime`; 0: from the first write. */
  readonly startTime: number
  /** 0: now. */
  readonly endTime: number
}

/** One change event of a timeline transaction, as the timeline answers it (absent members null). */
export interface TimelineChangeEvent {
  readonly entityUrn: string | null
  readonly category: string | null
  readonly operation: string | null
  readonly modifier: string | null
  readonly parameters: Readonly<Record<string, unknown>> | null
  readonly auditStamp: { readonly time: number; readonly actor?: string | null } | null
  readonly description: string | null
}

/** DataHub's `ChangeTransaction`: the change events of one write time. */
export interface TimelineTransaction {
  readonly timestamp: number
  readonly actor: string | null
  readonly semVer: string | null
  readonly versionStamp: string | null
  readonly changeEvents: readonly TimelineChangeEvent[]
}

/** Whether a dataset has a latest `schemaMetadata`, and whether it has a field of a given path. */
export interface SchemaFieldLookup {
  readonly hasSchema: boolean
  readonly hasField: boolean
}

/**
 * What the GraphQL resolvers need from the metadata service. One implementation calls the
 * in-process services (one-process mode), the other the metadata service's REST endpoints
 * (split mode), so both modes give the same answers and every write takes the REST path:
 * versions, edges, the change log and search all follow.
 */
export interface MetadataClient {
  /** Latest `aspects` of entities of ONE entity type (names the type does not have are skipped). */
  getEntities(urns: readonly string[], aspects: readonly string[]): Promise<Map<string, EntityAspects>>
  /** True when the entity's key aspect exists. */
  exists(urn: string): Promise<boolean>
  /**
   * Whether the dataset's latest `schemaMetadata` has a field whose `fieldPath` is exactly
   * `fieldPath`, answered without reading the schema into this process's heap (a schema may hold
   * 20,000 fields, 16 MB).
   */
  schemaField(urn: string, fieldPath: string): Promise<SchemaFieldLookup>
  /** One version of one aspect (0 = latest); undefined when there is no such row. */
  getAspectVersion(urn: string, aspect: string, version: number): Promise<AspectValue | undefined>
  /** Applies proposals all-or-nothing, stamped with `actor`. */
  ingestProposals(proposals: readonly MetadataProposal[], actor: string): Promise<void>
  /** Bounded multi-hop lineage from an entity. */
  lineage(query: LineageQuery): Promise<LineageAnswer>
  /** One page of the entities at the other end of an entity's edges of the given types. */
  relationships(query: RelationshipsQuery): Promise<RelationshipsAnswer>
  /** Time-series values of one entity, newest first. */
  timeseries(query: TimeseriesQuery): Promise<AspectValue[]>
  /** Daily usage of a dataset over a range ending now (`HOUR` ... `ALL`). */
  usage(resource: string, range: string): Promise<UsageAnswer>
  /** The entity's change transactions in the window, oldest first. */
  timeline(query: TimelineQuery): Promise<TimelineTransaction[]>
  /**
   * When ingestion last wrote the entity (DataHub's `lastIngested`): the newest `lastObserved` of
   * its aspects written by an ingestion run (a run id other than DataHub's default); null when none.
   */
  lastIngested(urn: string): Promise<number | null>
  /** Undoes what ingestion run `runId` wrote, its entities hard-deleted (DataHub's `rollbackIngestion`). */
  rollbackRun(runId: string, actor: string): Promise<void>
}
