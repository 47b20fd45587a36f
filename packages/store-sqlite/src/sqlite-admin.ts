import { NO_RUN_ID } from '@catalog/core'
import type { RunAspect, RunPageQuery, RunSummary, TimeseriesDeletion } from '@catalog/store'
import type Database from 'better-sqlite3'
import { softDeleted } from './schema.js'

/** The observation time of a row (`lastObserved`, else the write's time). */
const OBSERVED = 'COALESCE(a.observed, a.createdon)'
/** Rows of soft-deleted entities are left out unless asked for. */
const NOT_SOFT_DELETED = `(@includeSoft = 1 OR NOT ${softDeleted('a.eid', 's')})`

/**
 * Runs, counts and time-series deletes of the embedded store. Runs are read from the latest
 * aspect rows through the `aspect_rows_by_run` index of their run ids, so every write path keeps
 * them without extra bookkeeping: a run's rows are put in (urn, aspect) order by a sort of that
 * run's rows. The index leaves out the reserved `no-run-id-provided` (run id 0), which is never
 * listed and never rolled back; its rows are found by a scan of the latest rows.
 */
export class SqliteAdmin {
  private readonly stmt: ReturnType<typeof prepare>

  constructor(db: Database.Database) {
    this.stmt = prepare(db)
  }

  countAspects(aspect: string, urnLike?: string): number {
    return (this.stmt.count.get({ aspect, urnLike: urnLike ?? null }) as { n: number }).n
  }

  runs(q: RunPageQuery): RunSummary[] {
    const rows = this.stmt.runs.all(page(q)) as Array<{
      run_id: string
      n: number
      ts: number
    }>
    return rows.map((r) => ({ runId: r.run_id, rows: r.n, timestamp: r.ts }))
  }

  runAspects(runId: string, q: RunPageQuery): RunAspect[] {
    const read = runId === NO_RUN_ID ? this.stmt.defaultRunAspects : this.stmt.runAspects
    const rows = read.all({ ...page(q), runId }) as Array<{
      urn: string
      aspect: string
      ts: number
    }>
    return rows.map((r) => ({ runId, urn: r.urn, aspect: r.aspect, timestamp: r.ts }))
  }

  deleteTimeseries(d: TimeseriesDeletion): number {
    const bounds = { urn: d.urn, start: d.startTimeMillis ?? null, end: d.endTimeMillis ?? null }
    if (!d.aspects) return this.stmt.deleteSeries.run({ ...bounds, aspect: null }).changes
    let n = 0
    for (const aspect of d.aspects) n += this.stmt.deleteSeries.run({ ...bounds, aspect }).changes
    return n
  }
}

function page(q: RunPageQuery) {
  return { start: q.start, count: q.count, includeSoft: q.includeSoftDeleted ? 1 : 0 }
}

function prepare(db: Database.Database) {
  return {
    count: db.prepare(
      `SELECT COUNT(*) AS n FROM aspect_rows a CROSS JOIN urns u ON u.id = a.eid
       WHERE a.version = 0 AND a.aspect = @aspect AND (@urnLike IS NULL OR u.urn LIKE @urnLike)`,
    ),
    runs: db.prepare(
      `SELECT r.run AS run_id, g.n, g.ts FROM (
         SELECT a.run, COUNT(*) AS n, MAX(${OBSERVED}) AS ts FROM aspect_rows a
         WHERE a.version = 0 AND a.run > 0 AND ${NOT_SOFT_DELETED} GROUP BY a.run) g
       CROSS JOIN run_ids r ON r.id = g.run
       ORDER BY g.ts DESC, run_id LIMIT @count OFFSET @start`,
    ),
    runAspects: db.prepare(
      `SELECT u.urn, a.aspect, ${OBSERVED} AS ts FROM aspect_rows a CROSS JOIN urns u ON u.id = a.eid
       WHERE a.version = 0 AND a.run > 0 AND a.run = (SELECT id FROM run_ids WHERE run = @runId) AND ${NOT_SOFT_DELETED}
       ORDER BY u.urn, a.aspect LIMIT @count OFFSET @start`,
    ),
    // The reserved run is not in the run index (see STORE_DDL): a scan of the latest rows.
    defaultRunAspects: db.prepare(
      `SELECT u.urn, a.aspect, ${OBSERVED} AS ts FROM aspect_rows a CROSS JOIN urns u ON u.id = a.eid
       WHERE a.version = 0 AND a.run = 0 AND @runId IS NOT NULL AND ${NOT_SOFT_DELETED}
       ORDER BY u.urn, a.aspect LIMIT @count OFFSET @start`,
    ),
    deleteSeries: db.prepare(
      `DELETE FROM timeseries WHERE urn = @urn AND (@aspect IS NULL OR aspect = @aspect)
         AND (@start IS NULL OR timestamp_millis >= @start) AND (@end IS NULL OR timestamp_millis <= @end)`,
    ),
  }
}
