import type { LineagePage, LineageQuery, LineageResult, PartialReason } from '@catalog/store'
import type Database from 'better-sqlite3'
import { LineageMemo } from './sqlite-lineage-memo.js'
import { type LineagePlan, lineagePlan, type NearPlan } from './sqlite-lineage-plan.js'

/** Frontier entities per set-based query: small enough that the loop can yield and check budgets often. */
const CHUNK = 64
/** Edge rows taken at a time: their new far entities are read in one query, then the clock is checked. */
const BLOCK = 256
/** Longest stretch of synchronous work before the traversal lets other requests run, ms. */
const YIELD_AFTER_MS = 20

/** An entity the walk reached (or its start), by URN id. */
interface Reached {
  readonly urn: string
  /** Id of the entity one hop nearer the start on the kept path; -1 for the start. */
  readonly parent: number
  /** Relationship type of that hop. */
  readonly type: string
  readonly degree: number
}

/** A frontier entity: its id and URN. */
interface Node {
  readonly id: number
  readonly urn: string
}

/** The best way found so far to reach an entity of the level being built. */
interface Candidate {
  readonly urn: string
  parent: number
  parentUrn: string
  type: string
}

/** One edge read from a near entity (statements in raw mode): near id, relationship type, far id. */
type EdgeRow = [near: number, type: string, far: number]

/** State of one traversal: what was reached, the clock and the yield schedule. */
interface Walk {
  readonly q: LineageQuery
  readonly plan: LineagePlan
  readonly seen: Map<number, Reached>
  /** Soft-deleted entities met so far: never returned, never expanded, never checked twice. */
  readonly removed: Set<number>
  readonly deadline: number
  lastYield: number
}

interface LevelOutcome {
  readonly level: Map<number, Candidate>
  readonly stop?: 'time' | 'limit'
}

/**
 * Bounded breadth-first lineage over the integer-id edge table `edge_rows`.
 *
 * Each level is one set-based query per direction over the frontier (in chunks of {@link CHUNK}
 * ids of one entity type, passed as one JSON array), answered from the primary key of
 * `edge_rows` (outgoing) or `edge_rows_incoming` (incoming) alone. The walk keeps ids: the URN
 * and soft-deleted state of a far entity are read by id, in one query per {@link BLOCK} rows,
 * only for entities not met before (and remembered until the next write, see
 * {@link LineageMemo}); no URN is looked up by text past the start. Between chunks the walk
 * checks its node and time budgets and yields to the event loop, which a single recursive CTE
 * cannot do; the visited map ends cycles and keeps one shortest path per entity (ties to the
 * smallest parent URN, then relationship type).
 */
export class SqliteLineage {
  private readonly stmt: ReturnType<typeof prepare>
  private readonly memo: LineageMemo
  /** Edge reads by direction and relationship types (a JSON array), prepared at first use. */
  private readonly edgeReads = new Map<string, Database.Statement>()

  constructor(private readonly db: Database.Database) {
    this.stmt = prepare(db)
    this.memo = new LineageMemo(db)
  }

  /**
   * The statement reading the edges of a chunk of near entities (a JSON array of ids), one way,
   * of the given types. json_each drives the loop, so rows come in the chunk's order (sorted by
   * URN), then by type, then far id; the indexes alone answer (URNs are read after, for far
   * entities not met before). The types are few and fixed (the registry's), written into the
   * statement as literals.
   */
  private edgesOf(outgoing: boolean, types: string): Database.Statement {
    const key = `${outgoing}${types}`
    let stmt = this.edgeReads.get(key)
    if (!stmt) {
      const list = (JSON.parse(types) as string[]).map((t) => `'${t.replaceAll("'", "''")}'`).join(', ')
      stmt = this.db
        .prepare(
          outgoing
            ? `SELECT e.src, e.type, e.dst FROM json_each(?) j CROSS JOIN edge_rows e ON e.src = j.value
               WHERE e.type IN (${list})`
            : `SELECT e.dst, e.type, e.src FROM json_each(?) j
                 CROSS JOIN edge_rows e INDEXED BY edge_rows_incoming ON e.dst = j.value
               WHERE e.type IN (${list})`,
        )
        .raw()
      this.edgeReads.set(key, stmt)
    }
    return stmt
  }

  /** See {@link GraphStore.lineage}. */
  async lineage(q: LineageQuery): Promise<LineagePage> {
    const now = performance.now()
    const walk: Walk = {
      q,
      plan: lineagePlan(q.edges, q.direction === 'UPSTREAM'),
      seen: new Map(),
      removed: new Set(),
      deadline: now + q.timeBudgetMs,
      lastYield: now,
    }
    const found: number[] = []
    // Once per walk: a walk reads edges as they are when it reaches them, and what it learnt
    // of entities before a write made during it may still count (as when each read came when
    // it did); the next walk sees that write.
    this.memo.sync()
    const start = this.stmt.idOf.get(q.urn) as number | undefined
    // A URN the store never held has no edges.
    let frontier: Node[] = start === undefined ? [] : [{ id: start, urn: q.urn }]
    if (start !== undefined) walk.seen.set(start, { urn: q.urn, parent: -1, type: '', degree: 0 })
    let partial: PartialReason | undefined
    for (let degree = 1; frontier.length > 0; degree++) {
      if (degree > q.maxHops) {
        const probe = await this.expand(walk, frontier, 1)
        if (probe.stop === 'time') partial = 'TIME_BUDGET'
        else if (probe.level.size > 0) partial = 'MAX_HOPS'
        break
      }
      const remaining = q.maxNodes - found.length
      const { level, stop } = await this.expand(walk, frontier, remaining + 1)
      const next: Node[] = []
      for (const [id, c] of level) next.push({ id, urn: c.urn })
      next.sort(byUrn)
      if (next.length > remaining) {
        next.length = remaining
        partial = 'NODE_BUDGET'
      } else if (stop === 'time') {
        partial = 'TIME_BUDGET'
      }
      for (const { id } of next) {
        const c = level.get(id) as Candidate
        walk.seen.set(id, { urn: c.urn, parent: c.parent, type: c.type, degree })
        found.push(id)
      }
      if (partial) break
      frontier = next
    }
    const page = found.slice(q.start, q.start + q.count)
    return {
      total: found.length,
      results: page.map((id) => result(walk.seen, id)),
      isPartial: partial !== undefined,
      ...(partial ? { partialReason: partial } : {}),
    }
  }

  /**
   * Entities one hop beyond `frontier` (sorted by URN) that were not reached before and are not
   * soft-deleted (unless asked for), each with its smallest (parent URN, type). Stops once
   * `limit` entities were found or the time budget ran out. Rows are taken in (near URN, type,
   * far id) order, so a level cut by the node budget keeps the same entities every time.
   */
  private async expand(walk: Walk, frontier: readonly Node[], limit: number): Promise<LevelOutcome> {
    const level = new Map<number, Candidate>()
    for (const chunk of chunksByEntityType(frontier)) {
      if (performance.now() > walk.deadline) return { level, stop: 'time' }
      if (performance.now() - walk.lastYield > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        walk.lastYield = performance.now()
      }
      const near: NearPlan = walk.plan.from(entityTypeOf(chunk[0]?.urn as string))
      const ids = JSON.stringify(chunk.map((n) => n.id))
      for (const [outgoing, types, accepts] of [
        [true, near.out, near.acceptsOut],
        [false, near.in, near.acceptsIn],
      ] as const) {
        if (types === '[]') continue
        let block: EdgeRow[] = []
        for (const row of this.edgesOf(outgoing, types).iterate(ids) as IterableIterator<EdgeRow>) {
          // Never more rows at a time than entities still wanted: the maxHops probe wants one.
          if (block.push(row) < Math.min(BLOCK, limit - level.size)) continue
          if (this.absorb(walk, block, accepts, level, limit)) return { level, stop: 'limit' }
          if (performance.now() > walk.deadline) return { level, stop: 'time' }
          block = []
        }
        if (this.absorb(walk, block, accepts, level, limit)) return { level, stop: 'limit' }
      }
    }
    return { level }
  }

  /**
   * Takes a block of edge rows into `level`, in order: first the URN (and soft-deleted state) of
   * every far entity not met before, in one query; then each row. True once `limit` entities
   * were found (the rows after that one are left).
   */
  private absorb(
    walk: Walk,
    block: readonly EdgeRow[],
    accepts: NearPlan['acceptsOut'],
    level: Map<number, Candidate>,
    limit: number,
  ): boolean {
    const memo = this.memo
    const unknown = new Set<number>()
    for (const [, , far] of block)
      if (!walk.seen.has(far) && !walk.removed.has(far) && memo.urn(far) === undefined) unknown.add(far)
    if (unknown.size > 0) {
      const rows = this.stmt.urnsOf.all(JSON.stringify([...unknown])) as Array<[number, string, number]>
      for (const [id, urn, removed] of rows) {
        memo.learn(id, urn, removed === 1)
        unknown.delete(id)
      }
      // Ids without a URN row: no such entity.
      for (const id of unknown) memo.learn(id, '', false)
    }
    for (const [nearId, type, far] of block) {
      if (walk.seen.has(far) || walk.removed.has(far)) continue
      if (!walk.q.includeSoftDeleted && memo.isRemoved(far)) {
        walk.removed.add(far)
        continue
      }
      const urn = memo.urn(far) as string
      const current = level.get(far)
      if (current === undefined) {
        // An id with no URN row (no such entity) is never reached.
        if (urn === '' || !accepts(type, entityTypeOf(urn))) continue
        const parentUrn = (walk.seen.get(nearId) as Reached).urn
        level.set(far, { urn, parent: nearId, parentUrn, type })
        if (level.size >= limit) return true
      } else {
        const parentUrn = (walk.seen.get(nearId) as Reached).urn
        if (
          (parentUrn < current.parentUrn || (parentUrn === current.parentUrn && type < current.type)) &&
          accepts(type, entityTypeOf(urn))
        ) {
          current.parent = nearId
          current.parentUrn = parentUrn
          current.type = type
        }
      }
    }
    return false
  }
}

const byUrn = (a: Node, b: Node) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0)

/** The frontier (sorted by URN) split by entity type, in chunks of at most {@link CHUNK}. */
function chunksByEntityType(frontier: readonly Node[]): Node[][] {
  const chunks: Node[][] = []
  let current: Node[] = []
  let type = ''
  for (const node of frontier) {
    const t = entityTypeOf(node.urn)
    if (current.length === CHUNK || (current.length > 0 && t !== type)) {
      chunks.push(current)
      current = []
    }
    type = t
    current.push(node)
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}

/** `dataset` of `urn:li:dataset:(...)`. */
function entityTypeOf(urn: string): string {
  const end = urn.indexOf(':', 7)
  return end < 0 ? '' : urn.slice(7, end)
}

function result(seen: ReadonlyMap<number, Reached>, id: number): LineageResult {
  const hop = seen.get(id) as Reached
  const path = [hop.urn]
  for (let at = hop; at.degree > 0; ) {
    at = seen.get(at.parent) as Reached
    path.push(at.urn)
  }
  return { entity: hop.urn, type: hop.type, degree: hop.degree, path: path.reverse() }
}

/** True when the entity of URN id `id` has a latest `status` with `removed: true`. */
const removed = (id: string) =>
  `EXISTS (SELECT 1 FROM aspect_rows a WHERE a.eid = ${id} AND a.aspect = 'status' AND a.version = 0
    AND json_extract(a.metadata, '$.removed') = 1)`

function prepare(db: Database.Database) {
  return {
    idOf: db.prepare('SELECT id FROM urns WHERE urn = ?').pluck(),
    urnsOf: db
      .prepare(
        `SELECT u.id, u.urn, ${removed('u.id')} FROM json_each(?) j CROSS JOIN urns u ON u.id = j.value`,
      )
      .raw(),
  }
}
