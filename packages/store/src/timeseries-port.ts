import type { TimeseriesRow } from '@catalog/core'

export interface TimeseriesQuery {
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  /** Inclusive bounds on `timestampMillis`. */
  readonly startTimeMillis?: number
  readonly endTimeMillis?: number
  readonly limit: number
}

/** Time-series aspect rows, stored apart from versioned aspects. */
export interface TimeseriesStore {
  /** Time-series values, newest first. */
  timeseries(query: TimeseriesQuery): Promise<TimeseriesRow[]>
}
