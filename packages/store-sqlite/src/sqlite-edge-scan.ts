import type { EdgeKey, EdgeScanPage, EdgeScanQuery } from '@catalog/store'
import type Database from 'better-sqlite3'
import { EdgeScanPlanner } from './sqlite-edge-scan-plan.js'
import {
  type EdgeScanShape,
  edgeScanSql,
  PAST_EVERY_URN,
  SLICE_FN,
  sliceOf,
  typeRange,
} from './sqlite-edge-scan-sql.js'

/** Rows read beyond the page, so that an edge stored by two aspects rarely needs a second read. */
const DUPLICATE_SLACK = 16

/** How long a page of the scan may run, and in what steps. */
export interface EdgeScanLimits {
  /**
   * Wall-clock time a page may take, ms. Past it the page ends where the scan got to: with the
   * edges found so far (maybe none) and a cursor from which the next page goes on.
   */
  readonly budgetMs: number
  /** Target length of one synchronous step, ms; the scan yields to the event loop between steps. */
  readonly stepMs: number
}

export const DEFAULT_EDGE_SCAN_LIMITS: EdgeScanLimits = { budgetMs: 1_000, stepMs: 4 }

/**
 * Sources per step at first (through the URN index; through a list of source URNs, which may
 * have thousands of edges each, fewer); the count grows or shrinks toward
 * {@link EdgeScanLimits.stepMs}.
 */
const FIRST_STEP = 256
const FIRST_LISTED_STEP = 4
const MAX_STEP = 16_384

/** Where a step of sources ends (exclusive) given where it starts and how many sources it takes. */
type StepEnd = (lo: string, step: number) => string

/** What one read of the scan found: distinct edges, and where the next page starts when it is cut short. */
interface Found {
  readonly edges: EdgeKey[]
  /** Set when the budget ran out: every edge before it was read. */
  readonly resume?: EdgeKey
}

/**
 * The keyset scan over all edges of the embedded store: distinct (source, destination, type) in
 * that order (DataHub's edge sort), one page past the cursor with one edge more to know whether
 * another page follows.
 *
 * Without source URNs to start from, the scan walks the sources in URN order from the `urns`
 * index in steps: a range of a few hundred to many thousand sources, sized so that a step takes
 * about {@link EdgeScanLimits.stepMs}; between steps it lets other requests run. A filter that
 * matches few of the edges it reads (a relationship type with entity types that never meet)
 * thus never holds the event loop, and a page that runs past its time budget answers with what
 * it found and a cursor past the sources it read, as DataHub's scroll may answer a short page
 * with a scroll id. Given source URNs with few outgoing edges, or a few destinations (URNs, or
 * an entity type of few entities) with few incoming edges, the scan reads only their edges, at
 * once (see {@link EdgeScanPlanner}); source URNs with many edges are read a few at a time, in
 * steps as above. Soft-deleted ends are checked per row on the primary key of
 * `aspect_rows`.
 */
export class SqliteEdgeScan {
  private readonly statements = new Map<string, Database.Statement>()
  private readonly planner: EdgeScanPlanner
  /** The URN `offset` places past `lo` in the URN index, below `to`: the end of a step. */
  private readonly stepEnd: Database.Statement

  constructor(
    private readonly db: Database.Database,
    private readonly limits: EdgeScanLimits = DEFAULT_EDGE_SCAN_LIMITS,
  ) {
    db.function(SLICE_FN, { deterministic: true }, (source, destination, type, max) =>
      sliceOf(`${source}\u0000${destination}\u0000${type}`, Number(max)),
    )
    this.planner = new EdgeScanPlanner(db)
    this.stepEnd = db
      .prepare('SELECT urn FROM urns WHERE urn >= ? AND urn < ? ORDER BY urn LIMIT 1 OFFSET ?')
      .pluck()
  }

  async scan(q: EdgeScanQuery): Promise<EdgeScanPage> {
    if (this.planner.matchesNothing(q)) return { edges: [] }
    const sourceUrns = q.sourceUrns.length > 0
    const destinationIds = sourceUrns ? undefined : this.planner.fewDestinations(q)
    const byDestination = destinationIds !== undefined
    const fewSources = sourceUrns && this.planner.fewSourceEdges(q)
    const shape: EdgeScanShape = {
      types: q.types.length > 0,
      sourceTypes: q.sourceTypes.length > 0,
      destinationTypes: q.destinationTypes.length > 0,
      sourceUrns,
      destinationUrns: q.destinationUrns.length > 0,
      after: q.after !== undefined,
      live: !q.includeSoftDeleted,
      slice: q.slice !== undefined,
      byDestination,
      stepped: !byDestination && !fewSources,
    }
    const params: Record<string, unknown> = { limit: q.count + 1 + DUPLICATE_SLACK }
    if (shape.types) params.types = JSON.stringify(q.types)
    if (shape.sourceTypes) params.sourceTypes = JSON.stringify(q.sourceTypes)
    if (shape.destinationTypes) params.destinationTypes = JSON.stringify(q.destinationTypes)
    if (shape.sourceUrns) params.sourceUrns = JSON.stringify(q.sourceUrns)
    if (shape.destinationUrns) params.destinationUrns = JSON.stringify(q.destinationUrns)
    if (destinationIds) params.destinationIds = destinationIds
    if (q.slice) Object.assign(params, { sliceId: q.slice.id, sliceMax: q.slice.max })
    const want = q.count + 1
    const found = shape.stepped
      ? await this.inSteps(shape, params, want, q, ...this.steps(q))
      : { edges: this.distinctRows(shape, params, want, q.after) }
    const rows = found.edges
    if (found.resume) return { edges: rows, next: found.resume }
    if (rows.length <= q.count) return { edges: rows }
    const edges = rows.slice(0, q.count)
    const last = edges[edges.length - 1] as EdgeKey
    return { edges, next: { source: last.source, destination: last.destination, type: last.type } }
  }

  /**
   * How the sources are stepped through: the URN index from the first source URN of the
   * source types (or from the first URN), or the source URNs asked for, sorted as SQLite
   * sorts them; the start of the range, its end, where a step ends, and the first step's size.
   */
  private steps(q: EdgeScanQuery): [from: string, to: string, end: StepEnd, first: number] {
    if (q.sourceUrns.length > 0) {
      const listed = [...new Set(q.sourceUrns)].sort(byUtf8)
      const end: StepEnd = (lo, step) => {
        const at = listed.findIndex((urn) => byUtf8(urn, lo) >= 0)
        return at < 0 ? PAST_EVERY_URN : (listed[at + step] ?? PAST_EVERY_URN)
      }
      return ['', PAST_EVERY_URN, end, FIRST_LISTED_STEP]
    }
    const [from, to] = q.sourceTypes.length > 0 ? typeRange(q.sourceTypes) : ['', PAST_EVERY_URN]
    const end: StepEnd = (lo, step) => (this.stepEnd.get(lo, to, step) as string | undefined) ?? to
    return [from, to, end, FIRST_STEP]
  }

  /**
   * Up to `want` distinct edges, reading the sources in steps (see {@link steps}) and yielding
   * to the event loop between steps. Once the time budget is spent, the edges found so far and
   * a cursor at the next unread source: every edge of that source lies past it (an empty
   * destination sorts before every URN).
   */
  private async inSteps(
    shape: EdgeScanShape,
    params: Record<string, unknown>,
    want: number,
    q: EdgeScanQuery,
    from: string,
    to: string,
    stepEnd: StepEnd,
    first: number,
  ): Promise<Found> {
    let after = q.after
    let lo = after && after.source > from ? after.source : from
    const deadline = performance.now() + this.limits.budgetMs
    const out: EdgeKey[] = []
    let step = first
    for (;;) {
      if (lo >= to) return { edges: out }
      const started = performance.now()
      const hi = stepEnd(lo, step)
      this.distinctRows({ ...shape, after: after !== undefined }, { ...params, lo, hi }, want, after, out)
      if (out.length >= want || hi === to) return { edges: out }
      const took = performance.now() - started
      step = Math.max(
        first,
        Math.min(MAX_STEP, Math.round(step * Math.min(2, this.limits.stepMs / Math.max(took, 0.1)))),
      )
      lo = hi
      after = { source: hi, destination: '', type: '' }
      if (performance.now() >= deadline) return { edges: out, resume: after }
      await new Promise((resolve) => setImmediate(resolve))
    }
  }

  /**
   * Up to `want` distinct edges past `after`, appended to `out`. The same edge from two aspects
   * comes as adjacent rows (the order is by the whole key); they are merged here, which keeps
   * the scan streaming where a DISTINCT in SQL would sort every edge first. A read short of
   * distinct edges reads on.
   */
  private distinctRows(
    shape: EdgeScanShape,
    params: Record<string, unknown>,
    want: number,
    after: EdgeKey | undefined,
    out: EdgeKey[] = [],
  ): EdgeKey[] {
    let cursor = after
    for (;;) {
      const stmt = this.statement({ ...shape, after: cursor !== undefined })
      const args = cursor ? { ...params, s: cursor.source, d: cursor.destination, t: cursor.type } : params
      const rows = stmt.all(args) as EdgeKey[]
      for (const r of rows) {
        const last = out.at(-1)
        if (last && last.source === r.source && last.destination === r.destination && last.type === r.type)
          continue
        out.push(r)
        if (out.length === want) return out
      }
      if (rows.length < (params.limit as number)) return out
      cursor = rows.at(-1)
    }
  }

  private statement(shape: EdgeScanShape): Database.Statement {
    const key = Object.values(shape)
      .map((on) => (on ? '1' : '0'))
      .join('')
    let stmt = this.statements.get(key)
    if (!stmt) {
      stmt = this.db.prepare(edgeScanSql(shape))
      this.statements.set(key, stmt)
    }
    return stmt
  }
}

/** SQLite's order of TEXT (BINARY: UTF-8 bytes), which JS's differs from past U+FFFF. */
function byUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
}
