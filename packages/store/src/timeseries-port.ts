import type { TimeseriesRow } from '@catalog/core'

/** Conditions a time-series filter criterion can use (DataHub's `Condition` subset). */
export type TimeseriesCondition =
  | 'EQUAL'
  | 'IN'
  | 'GREATER_THAN'
  | 'GREATER_THAN_OR_EQUAL_TO'
  | 'LESS_THAN'
  | 'LESS_THAN_OR_EQUAL_TO'
  | 'EXISTS'

/**
 * One test on a field of the stored value. `field` is a dotted path into the value
 * (`eventGranularity.unit`); where the path reaches an array, any element may satisfy the
 * test. Values are strings as DataHub sends them: a numeric string compares as a number with
 * numeric fields, `true`/`false` match booleans.
 */
export interface TimeseriesCriterion {
  readonly field: string
  readonly condition: TimeseriesCondition
  /** EQUAL / IN: any of them; comparisons: the first; EXISTS: none. */
  readonly values: readonly string[]
  readonly negated?: boolean
}

/** A disjunction of conjunctions: a row matches when every criterion of some group holds. */
export type TimeseriesFilter = ReadonlyArray<ReadonlyArray<TimeseriesCriterion>>

/** Order by a field of the value instead of newest first. */
export interface TimeseriesSort {
  readonly field: string
  readonly order: 'ASCENDING' | 'DESCENDING'
}

export interface TimeseriesQuery {
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  /** Inclusive bounds on `timestampMillis`. */
  readonly startTimeMillis?: number
  readonly endTimeMillis?: number
  readonly limit: number
  /** Only rows matching the filter; no filter means every row. */
  readonly filter?: TimeseriesFilter
  /** Default: `timestampMillis` descending (newest first). */
  readonly sort?: TimeseriesSort
}

/** One time-series index: the rows of one aspect of one entity type. */
export interface TimeseriesIndex {
  readonly entityType: string
  readonly aspect: string
}

/** Row counts of an index: all rows, and those with `timestampMillis <= endTimeMillis`. */
export interface TimeseriesCounts {
  readonly total: number
  readonly matching: number
}

/** The stored size of one index (only indices that hold rows). */
export interface TimeseriesIndexSize extends TimeseriesIndex {
  readonly rows: number
  /** Bytes the rows take (keys, value and system metadata). Shrinks when rows are deleted. */
  readonly bytes: number
}

export type TaskState = 'running' | 'completed' | 'failed'

/** A durable background task (a time-series truncation), as `getEsTaskStatus` reports it. */
export interface StoredTask {
  /** The node id of the store that holds the task (`<nodeId>:<taskId>`). */
  readonly nodeId: string
  /** Positive, unique within the node. */
  readonly taskId: number
  readonly kind: string
  /** What the task was started with, enough to resume it. */
  readonly params: Readonly<Record<string, unknown>>
  readonly state: TaskState
  /** Epoch millis. */
  readonly startedAt: number
  readonly updatedAt: number
  readonly runTimeNanos: number
  /** Progress counters, kept as given. */
  readonly progress: Readonly<Record<string, unknown>>
  readonly error?: string
}

export interface NewTask {
  readonly kind: string
  readonly params: Readonly<Record<string, unknown>>
  readonly progress: Readonly<Record<string, unknown>>
  readonly startedAt: number
}

export interface TaskUpdate {
  readonly state?: TaskState
  readonly progress?: Readonly<Record<string, unknown>>
  readonly runTimeNanos?: number
  readonly error?: string
}

/** Durable task records: they survive a restart of the process. */
export interface TaskStore {
  /** The store's node id: stable across restarts, matching `[a-zA-Z0-9-_]+`. */
  taskNodeId(): Promise<string>
  /** Records a new running task and gives it the next id. */
  createTask(task: NewTask): Promise<StoredTask>
  /** Changes a task's state, progress, run time or error; unknown ids are ignored. */
  updateTask(nodeId: string, taskId: number, update: TaskUpdate): Promise<void>
  /** One task, or undefined. */
  task(nodeId: string, taskId: number): Promise<StoredTask | undefined>
  /** Tasks in a state, oldest first (to resume the running ones after a restart). */
  tasksInState(state: TaskState): Promise<StoredTask[]>
}

/** Time-series aspect rows, stored apart from versioned aspects, and their maintenance. */
export interface TimeseriesStore extends TaskStore {
  /** Time-series values, newest first unless `sort` says otherwise. */
  timeseries(query: TimeseriesQuery): Promise<TimeseriesRow[]>

  /** Rows of an index in total and up to `endTimeMillis` (inclusive). */
  timeseriesCounts(index: TimeseriesIndex, endTimeMillis: number): Promise<TimeseriesCounts>

  /**
   * Deletes up to `limit` rows of an index with `timestampMillis <= endTimeMillis`, oldest
   * first, in one short transaction. Returns how many went; 0 when none is left.
   */
  truncateTimeseries(index: TimeseriesIndex, endTimeMillis: number, limit: number): Promise<number>

  /** Size of every index that holds rows, ordered by entity type and aspect. */
  timeseriesSizes(): Promise<TimeseriesIndexSize[]>
}
