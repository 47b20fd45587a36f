import type { EdgeKey, EdgeScanPage, EdgeScanQuery } from '@catalog/store'
import type Database from 'better-sqlite3'

/** The SQL function that puts an edge in a slice: FNV-1a of (source, destination, type) modulo the slice count. */
const SLICE_FN = 'catalog_edge_slice'

/** Which filters a statement applies; one prepared statement per combination. */
interface Shape {
  readonly types: boolean
  readonly sourceTypes: boolean
  readonly destinationTypes: boolean
  readonly sourceUrns: boolean
  readonly destinationUrns: boolean
  readonly after: boolean
  readonly live: boolean
  readonly slice: boolean
}

/** `dataset` of a URN column holding `urn:li:dataset:(...)`. */
const entityType = (column: string) => `substr(${column}, 8, instr(substr(${column}, 8), ':') - 1)`

/** True when the entity in `column` has a latest `status` with `removed: true`. */
const removed = (column: string) =>
  `EXISTS (SELECT 1 FROM metadata_aspect_v2 m
    WHERE m.urn = ${column} AND m.aspect = 'status' AND m.version = 0
      AND json_extract(m.metadata, '$.removed') = 1)`

const inList = (expr: string, param: string) => `${expr} IN (SELECT value FROM json_each(@${param}))`

/**
 * The keyset scan over all edges of the embedded store: distinct (source, destination, type)
 * in that order (DataHub's edge sort), read from `edges_scroll` (or the primary key and
 * `edges_incoming` when URNs narrow it), one page past the cursor with one edge more to know
 * whether another page follows. Soft-deleted ends are checked per row on the primary key of
 * `metadata_aspect_v2`.
 */
export class SqliteEdgeScan {
  private readonly statements = new Map<string, Database.Statement>()

  constructor(private readonly db: Database.Database) {
    db.function(SLICE_FN, { deterministic: true }, (source, destination, type, max) =>
      sliceOf(`${source}\u0000${destination}\u0000${type}`, Number(max)),
    )
  }

  scan(q: EdgeScanQuery): EdgeScanPage {
    const shape: Shape = {
      types: q.types.length > 0,
      sourceTypes: q.sourceTypes.length > 0,
      destinationTypes: q.destinationTypes.length > 0,
      sourceUrns: q.sourceUrns.length > 0,
      destinationUrns: q.destinationUrns.length > 0,
      after: q.after !== undefined,
      live: !q.includeSoftDeleted,
      slice: q.slice !== undefined,
    }
    const params: Record<string, unknown> = { limit: q.count + 1 }
    if (shape.types) params.types = JSON.stringify(q.types)
    if (shape.sourceTypes) params.sourceTypes = JSON.stringify(q.sourceTypes)
    if (shape.destinationTypes) params.destinationTypes = JSON.stringify(q.destinationTypes)
    if (shape.sourceUrns) params.sourceUrns = JSON.stringify(q.sourceUrns)
    if (shape.destinationUrns) params.destinationUrns = JSON.stringify(q.destinationUrns)
    if (q.after) Object.assign(params, { s: q.after.source, d: q.after.destination, t: q.after.type })
    if (q.slice) Object.assign(params, { sliceId: q.slice.id, sliceMax: q.slice.max })
    const rows = this.statement(shape).all(params) as EdgeKey[]
    if (rows.length <= q.count) return { edges: rows }
    const edges = rows.slice(0, q.count)
    const last = edges[edges.length - 1] as EdgeKey
    return { edges, next: { source: last.source, destination: last.destination, type: last.type } }
  }

  private statement(shape: Shape): Database.Statement {
    const key = Object.values(shape)
      .map((on) => (on ? '1' : '0'))
      .join('')
    let stmt = this.statements.get(key)
    if (!stmt) {
      stmt = this.db.prepare(sql(shape))
      this.statements.set(key, stmt)
    }
    return stmt
  }
}

function sql(shape: Shape): string {
  const where: string[] = []
  if (shape.sourceUrns) where.push(inList('source', 'sourceUrns'))
  if (shape.destinationUrns) where.push(inList('destination', 'destinationUrns'))
  if (shape.types) where.push(inList('type', 'types'))
  if (shape.sourceTypes) where.push(inList(entityType('source'), 'sourceTypes'))
  if (shape.destinationTypes) where.push(inList(entityType('destination'), 'destinationTypes'))
  if (shape.after) where.push('(source, destination, type) > (@s, @d, @t)')
  if (shape.slice) where.push(`${SLICE_FN}(source, destination, type, @sliceMax) = @sliceId`)
  if (shape.live) where.push(`NOT ${removed('source')}`, `NOT ${removed('destination')}`)
  return `SELECT DISTINCT source, destination, type FROM edges
    ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY source, destination, type LIMIT @limit`
}

/** FNV-1a (32 bits) of `text`, modulo `max`. */
function sliceOf(text: string, max: number): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash % max
}
