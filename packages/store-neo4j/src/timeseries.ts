import { InvalidInputError, type TimeseriesRow } from '@catalog/core'
import type { TimeseriesQuery } from '@catalog/store'
import type { Neo4jConnection } from './connection.js'
import { TIMESERIES_RANGE, UPSERT_TIMESERIES } from './cypher-timeseries.js'
import { int, type TimeseriesNode, timeseriesKey, toTimeseriesRow } from './mapping.js'
import type { QueryRunner } from './statement.js'

/** Inserts a time-series row, or replaces the row with the same key, inside a write transaction. */
export async function appendTimeseries(tx: QueryRunner, row: TimeseriesRow): Promise<void> {
  const { partition, messageId } = timeseriesKey(row)
  await tx.run(UPSERT_TIMESERIES, {
    entityType: row.entityType,
    aspect: row.aspect,
    urn: row.urn,
    timestampMillis: int(row.timestampMillis),
    partition,
    messageId,
    value: JSON.stringify(row.value),
    systemMetadata: row.systemMetadata ? JSON.stringify(row.systemMetadata) : null,
  })
}

/** The time-series query this adapter answers: a time range, newest first. */
export type TimeRangeQuery = Omit<TimeseriesQuery, 'filter' | 'sort'>

/** Time-series reads of the Neo4j store. */
export class Neo4jTimeseries {
  constructor(private readonly connection: Neo4jConnection) {}

  /** Rows of one aspect of one entity within inclusive bounds, newest first, at most `limit`. */
  async timeseries(q: TimeRangeQuery): Promise<TimeseriesRow[]> {
    const extra = q as Partial<TimeseriesQuery>
    if ((extra.filter && extra.filter.length > 0) || extra.sort) {
      throw new InvalidInputError('the Neo4j metadata store answers time-series reads by time range only')
    }
    const rows = await this.connection.read(
      (tx) =>
        tx.run(TIMESERIES_RANGE, {
          entityType: q.entityType,
          aspect: q.aspect,
          urn: q.urn,
          startTimeMillis: int(q.startTimeMillis ?? Number.MIN_SAFE_INTEGER),
          endTimeMillis: int(q.endTimeMillis ?? Number.MAX_SAFE_INTEGER),
          limit: int(q.limit),
        }),
      'time-series read',
    )
    return rows.map((r) => toTimeseriesRow(q, r as unknown as TimeseriesNode))
  }
}
