/** One latest aspect row as the run that last wrote it sees it (DataHub's `AspectRowSummary`). */
export interface RunAspect {
  readonly runId: string
  readonly urn: string
  readonly aspect: string
  /** `systemMetadata.lastObserved` of the row (its creation time when absent). */
  readonly timestamp: number
}

/** One ingestion run: how many latest rows it wrote last, and when it last wrote. */
export interface RunSummary {
  readonly runId: string
  readonly rows: number
  readonly timestamp: number
}

export interface RunPageQuery {
  readonly start: number
  readonly count: number
  /** When false, rows of entities whose latest `status` has `removed: true` are left out. */
  readonly includeSoftDeleted: boolean
}

/** Time-series rows of one entity to delete; absent bounds are open. */
export interface TimeseriesDeletion {
  readonly urn: string
  /** Only these aspects; absent means every time-series aspect of the entity. */
  readonly aspects?: readonly string[]
  /** Inclusive bounds on `timestampMillis`. */
  readonly startTimeMillis?: number
  readonly endTimeMillis?: number
}

/**
 * Ingestion runs, counts and hard deletes of time series: what DataHub keeps in its system
 * metadata index and answers from SQL counts. A run is the `systemMetadata.runId` of the
 * writes; the runs of the reserved `no-run-id-provided` id are never listed.
 */
export interface AdminStore {
  /** Latest rows of an aspect, optionally only of URNs matching a SQL LIKE pattern. */
  countAspects(aspect: string, urnLike?: string): Promise<number>

  /** Runs by their newest write, newest first. */
  runs(query: RunPageQuery): Promise<RunSummary[]>

  /** The latest rows whose last write came from `runId`, in (urn, aspect) order. */
  runAspects(runId: string, query: RunPageQuery): Promise<RunAspect[]>

  /** Deletes time-series rows of an entity; returns how many went. */
  deleteTimeseries(deletion: TimeseriesDeletion): Promise<number>
}
