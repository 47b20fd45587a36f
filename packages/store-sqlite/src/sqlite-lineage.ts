import type { LineagePage, LineageQuery, PartialReason } from '@catalog/store'
import type Database from 'better-sqlite3'
import {
  byId,
  byUrn,
  chunksByEntityType,
  entityTypeOf,
  type Node,
  page,
  type Reached,
  result,
} from './sqlite-lineage-levels.js'
import { LineageMemo } from './sqlite-lineage-memo.js'
import { type LineagePlan, lineagePlan, type NearPlan } from './sqlite-lineage-plan.js'
import { EntityTypePresence } from './sqlite-lineage-presence.js'
import { type EntityRow, LineageSteps, type ProbeRow, type StepRow } from './sqlite-lineage-steps.js'

/** Edge rows taken at a time: their far entities not met before are read in one query, then the clock is checked. */
const BLOCK = 256
/** Longest stretch of synchronous work before the traversal lets other requests run, ms. */
const YIELD_AFTER_MS = 20

/** The best way found so far to reach an entity of the level being built. */
interface Candidate {
  readonly urn: string
  readonly entityType: string
  parent: number
  parentUrn: string
  type: string
}

/** State of one traversal: what was reached, the clock and the yield schedule. */
interface Walk {
  readonly q: LineageQuery
  readonly plan: LineagePlan
  readonly seen: Map<number, Reached>
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
 * Each level is one set-based query per chunk of the frontier (at most 64 ids of one entity
 * type, passed as one JSON array) that reads the edges of the asked direction, both ways the
 * registry's lineage relationships need, from the indexes alone (see {@link LineageSteps}),
 * leaving out the edge types whose far end can only be an entity type the store holds none of
 * (see {@link EntityTypePresence}); the frontier is read in id order. The walk keeps ids: the URN and soft-deleted state of far entities not met before are read by id,
 * in one query per {@link BLOCK} rows, and remembered until the next write (see
 * {@link LineageMemo}); no URN is looked up by text past the start. Between chunks the walk
 * checks its node and time budgets and yields to the event loop, which a single recursive CTE
 * cannot do; the visited map ends cycles and keeps one shortest path per entity (ties to the
 * smallest parent URN, then relationship type). Only the levels the asked page overlaps are
 * sorted by URN. Past the last hop it reads only until it meets
 * one entity more, to say whether `maxHops` cut the answer ({@link SqliteLineage.more}).
 */
export class SqliteLineage {
  private readonly steps: LineageSteps
  private readonly memo: LineageMemo
  private readonly presence: EntityTypePresence
  /** The edge types each near plan reads while the store holds the same entity types. */
  private reachable = new WeakMap<NearPlan, { readonly out: string; readonly in: string }>()

  constructor(db: Database.Database) {
    this.steps = new LineageSteps(db)
    this.memo = new LineageMemo(db)
    this.presence = new EntityTypePresence(db)
  }

  /** The edge types to read from entities of `near`'s type: those whose far end the store may hold. */
  private typesOf(near: NearPlan): { readonly out: string; readonly in: string } {
    let types = this.reachable.get(near)
    if (!types) {
      types = near.reachable((entityType) => this.presence.has(entityType))
      this.reachable.set(near, types)
    }
    return types
  }

  /** See {@link GraphStore.lineage}. */
  async lineage(q: LineageQuery): Promise<LineagePage> {
    const now = performance.now()
    const walk: Walk = {
      q,
      plan: lineagePlan(q.edges, q.direction === 'UPSTREAM'),
      seen: new Map(),
      deadline: now + q.timeBudgetMs,
      lastYield: now,
    }
    // The entities found, level by level (each in the order the walk met them).
    const levels: Node[][] = []
    let total = 0
    // Once per walk: a walk reads edges as they are when it reaches them, and what it learnt
    // of entities before a write made during it may still count (as when each read came when
    // it did); the next walk sees that write.
    const { changed, id: start } = this.memo.sync(q.urn)
    if (changed) {
      this.presence.forgetAbsent()
      this.reachable = new WeakMap()
    }
    // A URN the store never held has no edges.
    let frontier: Node[] =
      start === undefined ? [] : [{ id: start, urn: q.urn, entityType: entityTypeOf(q.urn) }]
    if (start !== undefined) walk.seen.set(start, { urn: q.urn, parent: -1, type: '', degree: 0 })
    let partial: PartialReason | undefined
    for (let degree = 1; frontier.length > 0; degree++) {
      if (degree > q.maxHops) {
        // Past the last hop, one entity more says that maxHops cut the answer.
        const more = await this.more(walk, frontier)
        if (more) partial = more === 'time' ? 'TIME_BUDGET' : 'MAX_HOPS'
        break
      }
      const remaining = q.maxNodes - total
      const { level, stop } = await this.expand(walk, frontier, remaining + 1)
      let next: Node[] = []
      for (const [id, c] of level) next.push({ id, urn: c.urn, entityType: c.entityType })
      if (next.length > remaining) {
        // The node budget keeps the level's first entities by URN.
        next = next.sort(byUrn).slice(0, remaining)
        partial = 'NODE_BUDGET'
      } else if (stop === 'time') {
        partial = 'TIME_BUDGET'
      }
      for (const { id } of next) {
        const c = level.get(id) as Candidate
        walk.seen.set(id, { urn: c.urn, parent: c.parent, type: c.type, degree })
      }
      levels.push(next)
      total += next.length
      if (partial) break
      // The next step reads the frontier in id order: the order of the indexes it seeks in.
      frontier = next.sort(byId)
    }
    return {
      total,
      results: page(levels, q.start, q.count).map((id) => result(walk.seen, id)),
      isPartial: partial !== undefined,
      ...(partial ? { partialReason: partial } : {}),
    }
  }

  /**
   * Entities one hop beyond `frontier` that were not reached before and are not soft-deleted
   * (unless asked for), each with its smallest (parent URN, type). Stops once `limit` entities
   * were found or the time budget ran out. Rows are taken in (near entity type, near id, way,
   * type, far id) order, so a level cut by the node budget keeps the same entities every time.
   */
  private async expand(walk: Walk, frontier: readonly Node[], limit: number): Promise<LevelOutcome> {
    const level = new Map<number, Candidate>()
    for (const chunk of chunksByEntityType(frontier)) {
      if (performance.now() > walk.deadline) return { level, stop: 'time' }
      if (performance.now() - walk.lastYield > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        walk.lastYield = performance.now()
      }
      const near = walk.plan.from((chunk[0] as Node).entityType)
      const types = this.typesOf(near)
      const stmt = this.steps.statement(types.out, types.in)
      if (!stmt) continue
      let block: StepRow[] = []
      const ids = JSON.stringify(chunk.map((n) => n.id))
      for (const row of stmt.iterate({ ids }) as IterableIterator<StepRow>) {
        // Never more rows at a time than entities still wanted.
        if (block.push(row) < Math.min(BLOCK, limit - level.size)) continue
        if (this.absorb(walk, block, near, level, limit)) return { level, stop: 'limit' }
        if (performance.now() > walk.deadline) return { level, stop: 'time' }
        block = []
      }
      if (this.absorb(walk, block, near, level, limit)) return { level, stop: 'limit' }
    }
    return { level }
  }

  /**
   * Whether any entity lies one hop beyond `frontier` that the walk would reach (not reached
   * before, not soft-deleted unless asked for, of an accepted type): reads edges only until it
   * meets one, each with its far entity's URN and state. `'time'` when the budget ran out first.
   */
  private async more(walk: Walk, frontier: readonly Node[]): Promise<boolean | 'time'> {
    const { seen, q } = walk
    for (const chunk of chunksByEntityType(frontier)) {
      if (performance.now() > walk.deadline) return 'time'
      if (performance.now() - walk.lastYield > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        walk.lastYield = performance.now()
      }
      const near = walk.plan.from((chunk[0] as Node).entityType)
      const types = this.typesOf(near)
      const stmt = this.steps.probe(types.out, types.in, q.includeSoftDeleted)
      if (!stmt) continue
      let rows = 0
      const ids = JSON.stringify(chunk.map((n) => n.id))
      for (const [, type, far, out, urn, removed] of stmt.iterate({ ids }) as IterableIterator<ProbeRow>) {
        if (++rows % BLOCK === 0 && performance.now() > walk.deadline) return 'time'
        if (urn === null || removed === 1 || seen.has(far)) continue
        if ((out === 1 ? near.acceptsOut : near.acceptsIn)(type, entityTypeOf(urn))) return true
      }
    }
    return false
  }

  /**
   * Takes a block of edge rows into `level`, in order: first the URN and soft-deleted state of
   * every far entity not met before, in one query; then each row. True once `limit` entities
   * were found (the rows after that one are left). What the query told is remembered after the
   * rows are taken: an entity learnt may take the memo's slot of another one of the same block.
   */
  private absorb(
    walk: Walk,
    block: readonly StepRow[],
    near: NearPlan,
    level: Map<number, Candidate>,
    limit: number,
  ): boolean {
    const { memo } = this
    const { seen } = walk
    const unknown: number[] = []
    for (const row of block) if (!seen.has(row[2]) && !memo.knows(row[2])) unknown.push(row[2])
    // URN (`''`: no such entity) and soft-deleted state of the far entities the memo did not know.
    let fresh: Map<number, EntityRow> | undefined
    if (unknown.length > 0) {
      fresh = new Map()
      // In id order: the order of the tables they are read from.
      unknown.sort((a, b) => a - b)
      for (const row of this.steps.entities.all(JSON.stringify(unknown)) as EntityRow[])
        fresh.set(row[0], row)
      // Ids without a URN row: no such entity.
      for (const id of unknown) if (!fresh.has(id)) fresh.set(id, [id, '', 0])
    }
    const done = this.take(walk, block, near, level, limit, fresh)
    if (fresh) for (const [id, urn, removed] of fresh.values()) memo.learn(id, urn, removed === 1)
    return done
  }

  /** The rows of {@link absorb}, with its far entities known (in `fresh` or the memo). */
  private take(
    walk: Walk,
    block: readonly StepRow[],
    near: NearPlan,
    level: Map<number, Candidate>,
    limit: number,
    fresh: ReadonlyMap<number, EntityRow> | undefined,
  ): boolean {
    const { memo } = this
    const { seen } = walk
    const skipRemoved = !walk.q.includeSoftDeleted
    for (const [nearId, type, far, out] of block) {
      if (seen.has(far)) continue
      const learnt = fresh?.get(far)
      if (skipRemoved && (learnt ? learnt[2] === 1 : memo.isRemoved(far))) continue
      const current = level.get(far)
      const accepts = out === 1 ? near.acceptsOut : near.acceptsIn
      if (current === undefined) {
        const urn = learnt ? learnt[1] : (memo.urn(far) as string)
        // An id with no URN row (no such entity) is never reached.
        if (urn === '') continue
        const entityType = entityTypeOf(urn)
        if (!accepts(type, entityType)) continue
        const parentUrn = (seen.get(nearId) as Reached).urn
        level.set(far, { urn, entityType, parent: nearId, parentUrn, type })
        if (level.size >= limit) return true
      } else {
        const parentUrn = (seen.get(nearId) as Reached).urn
        if (
          (parentUrn < current.parentUrn || (parentUrn === current.parentUrn && type < current.type)) &&
          accepts(type, current.entityType)
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
