import { InvalidInputError, type TimeseriesRow } from '@catalog/core'
import type { TimeseriesCounts, TimeseriesIndex, TimeseriesIndexSize, TimeseriesQuery } from '@catalog/store'
import type { Neo4jConnection } from './connection.js'
import {
  TIMESERIES_COUNTS,
  TIMESERIES_QUERY,
  TIMESERIES_SIZES,
  TIMESERIES_SORTED,
  TRUNCATE_TIMESERIES,
  UPSERT_TIMESERIES,
} from './cypher-timeseries.js'
import { int, type TimeseriesNode, timeseriesKey, toTimeseriesRow } from './mapping.js'
import type { QueryRunner } from './statement.js'
import { fieldPath, filterParam, timeseriesBytes, timeseriesFields } from './timeseries-fields.js'

/** Inserts a time-series row, or replaces the row with the same key, inside a write transaction. */
export async function appendTimeseries(tx: QueryRunner, row: TimeseriesRow): Promise<void> {
  const key = timeseriesKey(row)
  const value = JSON.stringify(row.value)
  const systemMetadata = row.systemMetadata ? JSON.stringify(row.systemMetadata) : null
  await tx.run(UPSERT_TIMESERIES, {
    entityType: row.entityType,
    aspect: row.aspect,
    urn: row.urn,
    timestampMillis: int(row.timestampMillis),
    partition: key.partition,
    messageId: key.messageId,
    value,
    systemMetadata,
    bytes: int(timeseriesBytes(row, key, value, systemMetadata)),
    fields: timeseriesFields(row.value),
  })
}

/** Time-series reads and maintenance of the Neo4j store. */
export class Neo4jTimeseries {
  constructor(private readonly connection: Neo4jConnection) {}

  /**
   * Rows of one aspect of one entity within inclusive bounds that pass the filter, newest
   * first or sorted by a value field, at most `limit`.
   */
  async timeseries(q: TimeseriesQuery): Promise<TimeseriesRow[]> {
    const params = {
      entityType: q.entityType,
      aspect: q.aspect,
      urn: q.urn,
      startTimeMillis: int(q.startTimeMillis ?? Number.MIN_SAFE_INTEGER),
      endTimeMillis: int(q.endTimeMillis ?? Number.MAX_SAFE_INTEGER),
      filter: filterParam(q.filter),
      limit: int(q.limit),
    }
    const sort = q.sort
      ? { statement: TIMESERIES_SORTED[q.sort.order], field: fieldPath(q.sort.field) }
      : null
    if (sort && !sort.statement) {
      throw new InvalidInputError(`Unknown sort order '${String(q.sort?.order)}'`)
    }
    const rows = await this.connection.read(
      (tx) =>
        sort?.statement
          ? tx.run(sort.statement, { ...params, sortField: sort.field })
          : tx.run(TIMESERIES_QUERY, params),
      'time-series read',
    )
    return rows.map((r) => toTimeseriesRow(q, r as unknown as TimeseriesNode))
  }

  /** Rows of an index in total and up to `endTimeMillis`. */
  async counts(index: TimeseriesIndex, endTimeMillis: number): Promise<TimeseriesCounts> {
    const [row] = await this.connection.read(
      (tx) =>
        tx.run(TIMESERIES_COUNTS, {
          entityType: index.entityType,
          aspect: index.aspect,
          endTimeMillis: int(endTimeMillis),
        }),
      'time-series count',
    )
    return { total: Number(row?.total ?? 0), matching: Number(row?.matching ?? 0) }
  }

  /** Deletes up to `limit` of the oldest rows up to `endTimeMillis` in one transaction. */
  async truncate(index: TimeseriesIndex, endTimeMillis: number, limit: number): Promise<number> {
    const [row] = await this.connection.write(
      (tx) =>
        tx.run(TRUNCATE_TIMESERIES, {
          entityType: index.entityType,
          aspect: index.aspect,
          endTimeMillis: int(endTimeMillis),
          limit: int(limit),
        }),
      'time-series truncation',
    )
    return Number(row?.removed ?? 0)
  }

  /** Rows and bytes of every index that holds rows, by entity type and aspect. */
  async sizes(): Promise<TimeseriesIndexSize[]> {
    const rows = await this.connection.read((tx) => tx.run(TIMESERIES_SIZES, {}), 'time-series sizes')
    return rows.map((r) => ({
      entityType: String(r.entityType),
      aspect: String(r.aspect),
      rows: Number(r.rowCount),
      bytes: Number(r.bytes),
    }))
  }
}
