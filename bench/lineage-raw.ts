/**
 * The raw lineage traversal the scale benchmark measures getLineage against: what the endpoint
 * must answer, computed with the least machinery SQLite offers, in this process, on the same
 * store file.
 *
 * One recursive CTE walks `edge_rows` from the start, following every lineage relationship the
 * endpoint follows from a dataset, each the way the registry's `isUpstream` flag gives (for
 * UPSTREAM: `DownstreamOf` outgoing, `Produces` and `DataProcessInstanceProduces` incoming; for
 * DOWNSTREAM the reverse), less those whose far end can only be an entity type the file holds
 * none of (as the endpoint's walk leaves them out; on the benchmark's datasets only
 * `DownstreamOf` remains), up to `hops`, and never steps onto a soft-deleted entity (latest
 * `status` with `removed: true`), as the endpoint neither returns nor traverses those. Each row
 * carries the entity it came from and the relationship type, so the rows, sorted as the
 * endpoint sorts its results (degree, URN), give every entity's least degree, the type of its
 * last hop and one shortest path (parent of least URN, as the endpoint picks) by a pass over
 * them: what each result of the endpoint carries. The start is never a result. (The CTE expands
 * an entity once per distinct (depth, parent): on a sparse DAG like the benchmark's, about once.)
 */
import type { LineageEdgeSpec } from '@catalog/store'
import type Database from 'better-sqlite3'

/** One result as the endpoint returns it. */
export interface RawResult {
  readonly entity: string
  readonly type: string
  readonly degree: number
  readonly path: readonly string[]
}

/** A page of the raw traversal: all entities found, the first `count` with their paths. */
export interface RawPage {
  readonly total: number
  readonly results: readonly RawResult[]
}

/**
 * The edge types an UPSTREAM or DOWNSTREAM walk follows from a dataset, each way: those whose far
 * end may be an entity type the store holds (`present`), as the endpoint's walk reads them.
 */
function datasetEdgeTypes(
  specs: readonly LineageEdgeSpec[],
  upstream: boolean,
  present: (entityType: string) => boolean,
) {
  const out = new Set<string>()
  const inc = new Set<string>()
  for (const s of specs) {
    const outgoing = s.isUpstream === upstream
    const [near, far] = outgoing ? [s.sourceTypes, s.destinationTypes] : [s.destinationTypes, s.sourceTypes]
    if (near.length > 0 && !near.includes('dataset')) continue
    if (far.length > 0 && !far.some(present)) continue
    ;(outgoing ? out : inc).add(s.type)
  }
  return { out: [...out], inc: [...inc] }
}

const literals = (types: readonly string[]) => types.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ')

/** True when entity `id` has a latest `status` with `removed: true`. */
const removed = (id: string) =>
  `EXISTS (SELECT 1 FROM aspect_rows a WHERE a.eid = ${id} AND a.aspect = 'status' AND a.version = 0
    AND json_extract(a.metadata, '$.removed') = 1)`

/** The raw traversal of one direction: `(urn, hops, count) => page`. */
function oneWay(
  db: Database.Database,
  specs: readonly LineageEdgeSpec[],
  upstream: boolean,
  present: (entityType: string) => boolean,
) {
  const { out, inc } = datasetEdgeTypes(specs, upstream, present)
  const steps: string[] = []
  if (out.length > 0)
    steps.push(`SELECT e.dst, w.depth + 1, w.id, e.type FROM walk w
      JOIN edge_rows e ON e.src = w.id AND e.type IN (${literals(out)})
      WHERE w.depth < $hops AND NOT ${removed('e.dst')}`)
  if (inc.length > 0)
    steps.push(`SELECT e.src, w.depth + 1, w.id, e.type FROM walk w
      JOIN edge_rows e INDEXED BY edge_rows_incoming ON e.dst = w.id AND e.type IN (${literals(inc)})
      WHERE w.depth < $hops AND NOT ${removed('e.src')}`)
  // Every (entity, depth, parent, type) the hops reach, least depth then URN first.
  const walk = db
    .prepare(
      `WITH RECURSIVE walk(id, depth, parent, type) AS (
         SELECT id, 0, -1, '' FROM urns WHERE urn = $urn UNION ${steps.join(' UNION ')})
       SELECT w.id, u.urn, w.depth, w.parent, w.type FROM walk w JOIN urns u ON u.id = w.id
       ORDER BY w.depth, u.urn`,
    )
    .raw()

  return (urn: string, hops: number, count: number): RawPage => {
    const rows = walk.all({ urn, hops }) as Array<[number, string, number, number, string]>
    // Per entity: its URN, least degree, and at that degree its parent of least URN, then type.
    const best = new Map<number, { urn: string; degree: number; parent: number; type: string }>()
    const order: number[] = []
    for (const [id, u, degree, parent, type] of rows) {
      const kept = best.get(id)
      if (kept === undefined) {
        best.set(id, { urn: u, degree, parent, type })
        if (degree > 0) order.push(id)
        continue
      }
      if (kept.degree < degree || kept.degree === 0) continue
      const [a, b] = [best.get(parent)?.urn as string, best.get(kept.parent)?.urn as string]
      if (a < b || (a === b && type < kept.type)) {
        kept.parent = parent
        kept.type = type
      }
    }
    const results = order.slice(0, count).map((id) => {
      const hit = best.get(id) as { urn: string; degree: number; parent: number; type: string }
      const path = [hit.urn]
      for (let at = hit; at.degree > 0; ) {
        at = best.get(at.parent) as typeof hit
        path.push(at.urn)
      }
      return { entity: hit.urn, type: hit.type, degree: hit.degree, path: path.reverse() }
    })
    return { total: order.length, results }
  }
}

/** The raw traversal both ways: `(urn, upstream, hops, count) => page`. */
export function rawLineage(
  db: Database.Database,
  specs: readonly LineageEdgeSpec[],
): (urn: string, upstream: boolean, hops: number, count: number) => RawPage {
  const any = db.prepare('SELECT 1 FROM urns WHERE urn >= ? AND urn < ? LIMIT 1').pluck()
  const present = (type: string) => any.get(`urn:li:${type}:`, `urn:li:${type};`) !== undefined
  const up = oneWay(db, specs, true, present)
  const down = oneWay(db, specs, false, present)
  return (urn, upstream, hops, count) => (upstream ? up : down)(urn, hops, count)
}
