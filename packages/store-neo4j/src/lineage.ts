import type {
  LineageDirection,
  LineageEdgeSpec,
  LineagePage,
  LineageQuery,
  LineageResult,
  PartialReason,
} from '@catalog/store'
import { isTransactionTimeout } from './errors.js'

/** Rows fetched beyond what a level still needs, so a few soft-deleted entities cost no extra round trip. */
const PAGE_SLACK = 64

/** One (type, direction) the traversal follows, as the level statement's `$specs` holds it. */
export interface SpecParam {
  readonly type: string
  /** True when the entity the traversal stands on is the edge's source. */
  readonly outgoing: boolean
  /** Entity types allowed where the traversal stands; null: any. */
  readonly near: readonly string[] | null
  /** Entity types allowed at the far end; null: any. */
  readonly far: readonly string[] | null
}

/** What the traversal asks the database for: one page of one level. */
export interface LevelRequest {
  readonly frontier: readonly string[]
  /** Entities never to return again: reached before, the start, soft-deleted ones met so far. */
  readonly visited: readonly string[]
  /** Only entities with a URN after this one (the page cursor); null for the first page. */
  readonly after: string | null
  readonly limit: number
  /** Milliseconds left of the time budget. */
  readonly timeoutMs: number
}

/** One entity of a level, as `LINEAGE_LEVEL` returns it. */
export interface LevelRow {
  readonly entity: string
  /** Every (frontier entity, relationship type) that reaches it. */
  readonly via: ReadonlyArray<{ readonly parent: string; readonly type: string }>
  /** Metadata (JSON) of its latest `status` aspect, or null. */
  readonly status: string | null
}

/** Reads one page of a level: rows ordered by URN, at most `limit`. */
export type ReadLevel = (request: LevelRequest) => Promise<LevelRow[]>

interface Hop {
  readonly parent: string
  readonly type: string
  readonly degree: number
}

interface Expansion {
  /** Live entities of the level in URN order, with their chosen (parent, type). */
  readonly found: Array<[string, { parent: string; type: string }]>
  readonly stop?: 'time' | 'limit'
}

/**
 * The (type, direction) pairs to follow for one lineage direction: an UPSTREAM traversal
 * follows an `isUpstream` edge from its source (OUTGOING), the others from their destination
 * (INCOMING); DOWNSTREAM the reverse. An empty entity-type list means any type.
 */
export function lineagePlan(
  edges: readonly LineageEdgeSpec[],
  direction: LineageDirection,
): { readonly types: string[]; readonly specs: SpecParam[] } {
  const upstream = direction === 'UPSTREAM'
  const orNull = (types: readonly string[]) => (types.length === 0 ? null : [...types])
  const specs = edges.map((e): SpecParam => {
    const outgoing = e.isUpstream === upstream
    return {
      type: e.type,
      outgoing,
      near: orNull(outgoing ? e.sourceTypes : e.destinationTypes),
      far: orNull(outgoing ? e.destinationTypes : e.sourceTypes),
    }
  })
  return { types: [...new Set(edges.map((e) => e.type))], specs }
}

/** True when a `status` aspect value says the entity is soft-deleted. */
export function isSoftDeleted(statusJson: string | null): boolean {
  if (!statusJson) return false
  try {
    return (JSON.parse(statusJson) as { removed?: unknown }).removed === true
  } catch {
    return false
  }
}

/**
 * Breadth-first lineage, one level at a time (see {@link GraphStore.lineage}). Each level is
 * one query over the whole frontier (`read`), paged by URN so that the node budget caps what
 * travels: a level asks for at most the entities the budget still allows plus one (to know
 * whether it cut something). Between pages and levels the walk checks its time budget, and
 * each query runs with the time left as its transaction timeout, so one huge level cannot
 * overrun the budget either. The visited set ends cycles and keeps one shortest path per
 * entity; among equally short ones the smallest parent (then type) wins.
 */
export async function traverse(
  q: LineageQuery,
  read: ReadLevel,
  clock: () => number = () => performance.now(),
): Promise<LineagePage> {
  const deadline = clock() + q.timeBudgetMs
  const seen = new Map<string, Hop>([[q.urn, { parent: '', type: '', degree: 0 }]])
  const removed = new Set<string>()
  const found: string[] = []

  const expand = async (frontier: readonly string[], want: number): Promise<Expansion> => {
    const level: Expansion['found'] = []
    let after: string | null = null
    for (;;) {
      const left = deadline - clock()
      if (left <= 0) return { found: level, stop: 'time' }
      const limit = want - level.length + PAGE_SLACK
      let rows: LevelRow[]
      try {
        rows = await read({ frontier, visited: [...seen.keys(), ...removed], after, limit, timeoutMs: left })
      } catch (err) {
        if (isTransactionTimeout(err)) return { found: level, stop: 'time' }
        throw err
      }
      for (const row of rows) {
        if (!q.includeSoftDeleted && isSoftDeleted(row.status)) {
          removed.add(row.entity)
          continue
        }
        level.push([row.entity, bestParent(row.via)])
        if (level.length >= want) return { found: level, stop: 'limit' }
      }
      const last = rows[rows.length - 1]
      if (rows.length < limit || !last) return { found: level }
      after = last.entity
    }
  }

  let frontier = [q.urn]
  let partial: PartialReason | undefined
  for (let degree = 1; frontier.length > 0; degree++) {
    if (degree > q.maxHops) {
      const probe = await expand(frontier, 1)
      if (probe.stop === 'time') partial = 'TIME_BUDGET'
      else if (probe.found.length > 0) partial = 'MAX_HOPS'
      break
    }
    const remaining = q.maxNodes - found.length
    const { found: level, stop } = await expand(frontier, remaining + 1)
    if (level.length > remaining) {
      level.length = remaining
      partial = 'NODE_BUDGET'
    } else if (stop === 'time') {
      partial = 'TIME_BUDGET'
    }
    const next = level.map(([urn]) => urn).sort()
    const hops = new Map(level)
    for (const urn of next) {
      const via = hops.get(urn) as { parent: string; type: string }
      seen.set(urn, { ...via, degree })
      found.push(urn)
    }
    if (partial) break
    frontier = next
  }
  const page = found.slice(q.start, q.start + q.count)
  return {
    total: found.length,
    results: page.map((urn) => result(seen, urn)),
    isPartial: partial !== undefined,
    ...(partial ? { partialReason: partial } : {}),
  }
}

/** The smallest (parent, type) among the ways an entity is reached. */
function bestParent(via: LevelRow['via']): { parent: string; type: string } {
  let best: { parent: string; type: string } | undefined
  for (const v of via) {
    if (!best || v.parent < best.parent || (v.parent === best.parent && v.type < best.type)) {
      best = { parent: v.parent, type: v.type }
    }
  }
  if (!best) throw new Error('a lineage level returned an entity reached by no edge')
  return best
}

function result(seen: ReadonlyMap<string, Hop>, urn: string): LineageResult {
  const hop = seen.get(urn) as Hop
  const path = [urn]
  for (let at = hop; at.degree > 0; at = seen.get(at.parent) as Hop) path.push(at.parent)
  return { entity: urn, type: hop.type, degree: hop.degree, path: path.reverse() }
}
