import { NO_RUN_ID } from '@catalog/core'
import type { RunAspect, RunPageQuery, RunSummary, TimeseriesDeletion } from '@catalog/store'
import type { Neo4jConnection } from './connection.js'
import { COUNT_ASPECTS, DELETE_TIMESERIES, RUN_ASPECTS, RUNS } from './cypher-admin.js'
import { int, likeToRegex } from './mapping.js'

/** The soft-delete marker as stored (canonical JSON of `status`). */
const SOFT_DELETED = { statusAspect: 'status', removedValue: '{"removed":true}' }

/** Runs, counts and time-series deletes on Neo4j (see `cypher-admin.ts`). */
export class Neo4jAdmin {
  constructor(private readonly connection: Neo4jConnection) {}

  async countAspects(aspect: string, urnLike?: string): Promise<number> {
    const [row] = await this.connection.read(
      (tx) => tx.run(COUNT_ASPECTS, { aspect, urnRegex: urnLike ? likeToRegex(urnLike) : null }),
      'aspect count',
    )
    return Number(row?.n ?? 0)
  }

  async runs(q: RunPageQuery): Promise<RunSummary[]> {
    const rows = await this.connection.read(
      (tx) => tx.run(RUNS, { ...page(q), noRun: NO_RUN_ID }),
      'ingestion runs',
    )
    return rows.map((r) => ({ runId: String(r.runId), rows: Number(r.rowCount), timestamp: Number(r.ts) }))
  }

  async runAspects(runId: string, q: RunPageQuery): Promise<RunAspect[]> {
    const rows = await this.connection.read((tx) => tx.run(RUN_ASPECTS, { ...page(q), runId }), 'run rows')
    return rows.map((r) => ({ runId, urn: String(r.urn), aspect: String(r.aspect), timestamp: Number(r.ts) }))
  }

  async deleteTimeseries(d: TimeseriesDeletion): Promise<number> {
    const [row] = await this.connection.write(
      (tx) =>
        tx.run(DELETE_TIMESERIES, {
          urn: d.urn,
          aspects: d.aspects ?? null,
          startTimeMillis: d.startTimeMillis === undefined ? null : int(d.startTimeMillis),
          endTimeMillis: d.endTimeMillis === undefined ? null : int(d.endTimeMillis),
        }),
      'time-series delete',
    )
    return Number(row?.removed ?? 0)
  }
}

function page(q: RunPageQuery) {
  return { start: int(q.start), count: int(q.count), includeSoft: q.includeSoftDeleted, ...SOFT_DELETED }
}
