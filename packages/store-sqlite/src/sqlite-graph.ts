import type {
  EdgeScanPage,
  EdgeScanQuery,
  LineageEdgeSpec,
  LineagePage,
  LineageQuery,
  LineageResult,
  PartialReason,
  RelationshipPage,
  RelationshipQuery,
} from '@catalog/store'
import type Database from 'better-sqlite3'
import { SqliteEdgeScan } from './sqlite-edge-scan.js'
import { SqliteRelationships } from './sqlite-relationships.js'

/** Frontier entities per set-based query: small enough that the loop can yield and check budgets often. */
const CHUNK = 64
/** Newly found entities per soft-delete check. */
const STATUS_BATCH = 256
/** Rows read between two clock checks inside one query. */
const CLOCK_EVERY = 1024
/** Longest stretch of synchronous work before the traversal lets other requests run, ms. */
const YIELD_AFTER_MS = 20

interface Hop {
  readonly parent: string
  readonly type: string
  readonly degree: number
}

interface Candidate {
  parent: string
  type: string
}

/** Allowed entity types at the near end (where the traversal stands) and the far end of an edge. */
interface EndTypes {
  readonly near: ReadonlySet<string> | undefined
  readonly far: ReadonlySet<string> | undefined
}

interface Plan {
  readonly out: ReadonlyMap<string, readonly EndTypes[]>
  readonly in: ReadonlyMap<string, readonly EndTypes[]>
  /**
   * The edge types worth querying from an entity of type `nearType`, OUTGOING and INCOMING,
   * as JSON arrays: a dataset is never the source of a `Produces` edge, so its frontier skips
   * those index seeks.
   */
  readonly typesFrom: (nearType: string) => { readonly out: string; readonly in: string }
}

interface EdgeRow {
  near: string
  type: string
  far: string
}

/** State of one traversal: what was reached, the clock and the yield schedule. */
interface Walk {
  readonly q: LineageQuery
  readonly plan: Plan
  readonly seen: Map<string, Hop>
  /** Soft-deleted entities met so far: never returned, never expanded, never checked twice. */
  readonly removed: Set<string>
  readonly deadline: number
  lastYield: number
}

interface LevelOutcome {
  readonly level: Map<string, Candidate>
  readonly stop?: 'time' | 'limit'
}

/**
 * Relationship reads and lineage traversal over the `edges` table of the embedded store.
 *
 * Lineage is a level-by-level breadth-first search: each level is one set-based query per
 * direction over the frontier (in chunks of {@link CHUNK} URNs passed as one JSON array),
 * answered from the primary key of `edge_rows` (outgoing) or `edge_rows_incoming` (incoming). Between chunks
 * the walk checks its node and time budgets and yields to the event loop, which a single
 * recursive CTE cannot do; the visited map ends cycles and keeps one shortest path per entity.
 */
export class SqliteGraph {
  private readonly stmt: ReturnType<typeof prepare>
  private readonly edgeScan: SqliteEdgeScan
  private readonly oneHop: SqliteRelationships

  constructor(db: Database.Database) {
    this.stmt = prepare(db)
    this.edgeScan = new SqliteEdgeScan(db)
    this.oneHop = new SqliteRelationships(db)
  }

  /** One page of the keyset scan over all edges; see {@link GraphStore.scanEdges}. */
  scanEdges(q: EdgeScanQuery): EdgeScanPage {
    return this.edgeScan.scan(q)
  }

  /** Distinct (type, entity) pairs at `q.urn`, ordered by type then entity. */
  relationships(q: RelationshipQuery): RelationshipPage {
    return this.oneHop.page(q)
  }

  /** Bounded breadth-first lineage; see {@link GraphStore.lineage}. */
  async lineage(q: LineageQuery): Promise<LineagePage> {
    const now = performance.now()
    const walk: Walk = {
      q,
      plan: plan(q.edges, q.direction === 'UPSTREAM'),
      seen: new Map([[q.urn, { parent: '', type: '', degree: 0 }]]),
      removed: new Set(),
      deadline: now + q.timeBudgetMs,
      lastYield: now,
    }
    const found: string[] = []
    let frontier = [q.urn]
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
      const next = [...level.keys()].sort()
      if (next.length > remaining) {
        next.length = remaining
        partial = 'NODE_BUDGET'
      } else if (stop === 'time') {
        partial = 'TIME_BUDGET'
      }
      for (const urn of next) {
        const c = level.get(urn) as Candidate
        walk.seen.set(urn, { parent: c.parent, type: c.type, degree })
        found.push(urn)
      }
      if (partial) break
      frontier = next
    }
    const page = found.slice(q.start, q.start + q.count)
    return {
      total: found.length,
      results: page.map((urn) => result(walk.seen, urn)),
      isPartial: partial !== undefined,
      ...(partial ? { partialReason: partial } : {}),
    }
  }

  /**
   * Entities one hop beyond `frontier` that were not reached before and are not soft-deleted
   * (unless asked for), each with its smallest (parent, type). Stops once `limit` entities
   * were found or the time budget ran out.
   */
  private async expand(walk: Walk, frontier: readonly string[], limit: number): Promise<LevelOutcome> {
    const level = new Map<string, Candidate>()
    const fresh: string[] = []
    for (const chunk of chunksByEntityType(frontier)) {
      if (performance.now() > walk.deadline) return { level, stop: 'time' }
      if (performance.now() - walk.lastYield > YIELD_AFTER_MS) {
        await new Promise((resolve) => setImmediate(resolve))
        walk.lastYield = performance.now()
      }
      const nodes = JSON.stringify(chunk)
      const from = walk.plan.typesFrom(entityTypeOf(chunk[0] as string))
      for (const [stmt, types, ends] of [
        [this.stmt.lineageOut, from.out, walk.plan.out],
        [this.stmt.lineageIn, from.in, walk.plan.in],
      ] as const) {
        if (types === '[]') continue
        let rows = 0
        for (const row of stmt.iterate(nodes, types) as IterableIterator<EdgeRow>) {
          if (++rows % CLOCK_EVERY === 0 && performance.now() > walk.deadline) {
            this.dropRemoved(walk, level, fresh)
            return { level, stop: 'time' }
          }
          if (walk.seen.has(row.far) || walk.removed.has(row.far) || !accepts(ends, row)) continue
          const current = level.get(row.far)
          if (current === undefined) {
            level.set(row.far, { parent: row.near, type: row.type })
            fresh.push(row.far)
            if (fresh.length >= STATUS_BATCH) this.dropRemoved(walk, level, fresh)
            if (level.size >= limit) {
              this.dropRemoved(walk, level, fresh)
              if (level.size >= limit) return { level, stop: 'limit' }
            }
          } else if (row.near < current.parent || (row.near === current.parent && row.type < current.type)) {
            current.parent = row.near
            current.type = row.type
          }
        }
      }
      this.dropRemoved(walk, level, fresh)
      if (level.size >= limit) return { level, stop: 'limit' }
    }
    return { level }
  }

  /** Moves the soft-deleted entities among `fresh` out of `level`; empties `fresh`. */
  private dropRemoved(walk: Walk, level: Map<string, Candidate>, fresh: string[]): void {
    if (fresh.length === 0) return
    if (!walk.q.includeSoftDeleted) {
      for (const { urn } of this.stmt.softDeleted.all(JSON.stringify(fresh)) as Array<{ urn: string }>) {
        level.delete(urn)
        walk.removed.add(urn)
      }
    }
    fresh.length = 0
  }
}

/** Splits the lineage specs into the edge types to follow OUTGOING and INCOMING for one direction. */
function plan(specs: readonly LineageEdgeSpec[], upstream: boolean): Plan {
  const out = new Map<string, EndTypes[]>()
  const inc = new Map<string, EndTypes[]>()
  const set = (types: readonly string[]) => (types.length === 0 ? undefined : new Set(types))
  for (const spec of specs) {
    const outgoing = spec.isUpstream === upstream
    const ends: EndTypes = outgoing
      ? { near: set(spec.sourceTypes), far: set(spec.destinationTypes) }
      : { near: set(spec.destinationTypes), far: set(spec.sourceTypes) }
    const target = outgoing ? out : inc
    const list = target.get(spec.type)
    if (list) list.push(ends)
    else target.set(spec.type, [ends])
  }
  const from = (ends: ReadonlyMap<string, readonly EndTypes[]>, nearType: string) =>
    JSON.stringify(
      [...ends].filter(([, list]) => list.some((e) => !e.near || e.near.has(nearType))).map(([t]) => t),
    )
  const cache = new Map<string, { out: string; in: string }>()
  return {
    out,
    in: inc,
    typesFrom: (nearType) => {
      let types = cache.get(nearType)
      if (!types) {
        types = { out: from(out, nearType), in: from(inc, nearType) }
        cache.set(nearType, types)
      }
      return types
    },
  }
}

/** The frontier sorted, split by entity type, in chunks of at most {@link CHUNK}. */
function chunksByEntityType(frontier: readonly string[]): string[][] {
  const chunks: string[][] = []
  let current: string[] = []
  let type = ''
  for (const urn of [...frontier].sort()) {
    const t = entityTypeOf(urn)
    if (current.length === CHUNK || (current.length > 0 && t !== type)) {
      chunks.push(current)
      current = []
    }
    type = t
    current.push(urn)
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}

function accepts(ends: ReadonlyMap<string, readonly EndTypes[]>, row: EdgeRow): boolean {
  const options = ends.get(row.type)
  if (!options) return false
  const near = entityTypeOf(row.near)
  const far = entityTypeOf(row.far)
  return options.some((o) => (!o.near || o.near.has(near)) && (!o.far || o.far.has(far)))
}

/** `dataset` of `urn:li:dataset:(...)`. */
function entityTypeOf(urn: string): string {
  const end = urn.indexOf(':', 7)
  return end < 0 ? '' : urn.slice(7, end)
}

function result(seen: ReadonlyMap<string, Hop>, urn: string): LineageResult {
  const hop = seen.get(urn) as Hop
  const path = [urn]
  for (let at = hop; at.degree > 0; at = seen.get(at.parent) as Hop) path.push(at.parent)
  return { entity: urn, type: hop.type, degree: hop.degree, path: path.reverse() }
}

function prepare(db: Database.Database) {
  return {
    lineageOut: db.prepare(
      `SELECT n.urn AS near, e.type, f.urn AS far
       FROM urns n CROSS JOIN edge_rows e ON e.src = n.id CROSS JOIN urns f ON f.id = e.dst
       WHERE n.urn IN (SELECT value FROM json_each(?)) AND e.type IN (SELECT value FROM json_each(?))`,
    ),
    lineageIn: db.prepare(
      `SELECT n.urn AS near, e.type, f.urn AS far
       FROM urns n CROSS JOIN edge_rows e ON e.dst = n.id CROSS JOIN urns f ON f.id = e.src
       WHERE n.urn IN (SELECT value FROM json_each(?)) AND e.type IN (SELECT value FROM json_each(?))`,
    ),
    softDeleted: db.prepare(
      `SELECT u.urn FROM urns u CROSS JOIN aspect_rows a ON a.eid = u.id
       WHERE u.urn IN (SELECT value FROM json_each(?)) AND a.aspect = 'status' AND a.version = 0
         AND json_extract(a.metadata, '$.removed') = 1`,
    ),
  }
}
