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

/** True when the entity whose URN id is in `column` has a latest `status` with `removed: true`. */
const removed = (column: string) =>
  `EXISTS (SELECT 1 FROM aspect_rows m
    WHERE m.eid = ${column} AND m.aspect = 'status' AND m.version = 0
      AND json_extract(m.metadata, '$.removed') = 1)`

/** Rows read beyond the page, so that an edge stored by two aspects rarely needs a second read. */
const DUPLICATE_SLACK = 16

const inList = (expr: string, param: string) => `${expr} IN (SELECT value FROM json_each(@${param}))`

/**
 * The keyset scan over all edges of the embedded store: distinct (source, destination, type)
 * in that order (DataHub's edge sort): sources in URN order from the `urns` index, each source's
 * edges from the primary key of `edge_rows` sorted by destination URN (or `edge_rows_incoming`
 * when destination URNs narrow it), one page past the cursor with one edge more to know whether
 * another page follows. Soft-deleted ends are checked per row on the primary key of `aspect_rows`.
 */
export class SqliteEdgeScan {
  private readonly statements = new Map<string, Database.Statement>()
  /** Whether any URN lies in [from, to): an entity type with no entity has no edge. */
  private readonly anyUrnIn: Database.Statement
  /** Whether any edge has one of the types (a JSON array): a pass over the incoming index, which stops at the first. */
  private readonly anyEdgeOf: Database.Statement

  constructor(private readonly db: Database.Database) {
    db.function(SLICE_FN, { deterministic: true }, (source, destination, type, max) =>
      sliceOf(`${source}\u0000${destination}\u0000${type}`, Number(max)),
    )
    this.anyUrnIn = db.prepare('SELECT 1 FROM urns WHERE urn >= ? AND urn < ? LIMIT 1').pluck()
    this.anyEdgeOf = db
      .prepare('SELECT 1 FROM edge_rows WHERE +type IN (SELECT value FROM json_each(?)) LIMIT 1')
      .pluck()
  }

  /**
   * True when no edge can match: an entity type of either end has no entity at all, or no edge
   * has any of the relationship types. Each answers far sooner than a pass of the keyset scan
   * (which reads every source in URN order): an index range, or the incoming index read in
   * its own order up to the first edge of those types.
   */
  private matchesNothing(q: EdgeScanQuery): boolean {
    for (const types of [q.sourceTypes, q.destinationTypes]) {
      if (types.length === 0) continue
      if (!types.some((t) => this.anyUrnIn.get(...typeRange([t])) !== undefined)) return true
    }
    return q.types.length > 0 && this.anyEdgeOf.get(JSON.stringify(q.types)) === undefined
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
    if (this.matchesNothing(q)) return { edges: [] }
    const params: Record<string, unknown> = { limit: q.count + 1 + DUPLICATE_SLACK }
    if (shape.types) params.types = JSON.stringify(q.types)
    if (shape.sourceTypes) {
      params.sourceTypes = JSON.stringify(q.sourceTypes)
      ;[params.sourcesFrom, params.sourcesTo] = typeRange(q.sourceTypes)
    }
    if (shape.destinationTypes) params.destinationTypes = JSON.stringify(q.destinationTypes)
    if (shape.sourceUrns) params.sourceUrns = JSON.stringify(q.sourceUrns)
    if (shape.destinationUrns) params.destinationUrns = JSON.stringify(q.destinationUrns)
    if (q.slice) Object.assign(params, { sliceId: q.slice.id, sliceMax: q.slice.max })
    const rows = this.distinctRows(shape, params, q.count + 1, q.after)
    if (rows.length <= q.count) return { edges: rows }
    const edges = rows.slice(0, q.count)
    const last = edges[edges.length - 1] as EdgeKey
    return { edges, next: { source: last.source, destination: last.destination, type: last.type } }
  }

  /**
   * Up to `want` distinct edges past `after`. The same edge from two aspects comes as adjacent
   * rows (the order is by the whole key); they are merged here, which keeps the scan streaming
   * where a DISTINCT in SQL would sort every edge first. A page short of distinct edges reads on.
   */
  private distinctRows(
    shape: Shape,
    params: Record<string, unknown>,
    want: number,
    after: EdgeKey | undefined,
  ): EdgeKey[] {
    const out: EdgeKey[] = []
    let cursor = after
    for (;;) {
      const stmt = this.statement({ ...shape, after: cursor !== undefined })
      const args = cursor ? { ...params, s: cursor.source, d: cursor.destination, t: cursor.type } : params
      // One lower bound on the source URN: the cursor's, or the first URN of the source types.
      if (cursor && shape.sourceTypes && cursor.source > (args.sourcesFrom as string))
        args.sourcesFrom = cursor.source
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
  if (shape.sourceUrns) where.push(inList('s.urn', 'sourceUrns'))
  if (shape.destinationUrns) where.push(inList('d.urn', 'destinationUrns'))
  if (shape.types) where.push(inList('e.type', 'types'))
  if (shape.sourceTypes) {
    // The URNs of the source types lie in one range of the URN index: the scan reads that range.
    where.push('s.urn >= @sourcesFrom', 's.urn < @sourcesTo')
    where.push(inList(entityType('s.urn'), 'sourceTypes'))
  }
  if (shape.destinationTypes) where.push(inList(entityType('d.urn'), 'destinationTypes'))
  // The first term lets the scan start at the cursor's source in the `urns` index.
  if (shape.after) {
    if (!shape.sourceTypes) where.push('s.urn >= @s')
    where.push('(s.urn, d.urn, e.type) > (@s, @d, @t)')
  }
  if (shape.slice) where.push(`${SLICE_FN}(s.urn, d.urn, e.type, @sliceMax) = @sliceId`)
  if (shape.live) where.push(`NOT ${removed('e.src')}`, `NOT ${removed('e.dst')}`)
  // Sources in URN order from the index, each one's edges sorted by destination URN: no sort
  // of the whole table. Only destination URNs: their incoming edges, then sorted.
  const from =
    shape.destinationUrns && !shape.sourceUrns
      ? 'urns d CROSS JOIN edge_rows e ON e.dst = d.id CROSS JOIN urns s ON s.id = e.src'
      : `urns s${shape.sourceUrns ? '' : ' INDEXED BY urns_by_urn'} CROSS JOIN edge_rows e ON e.src = s.id CROSS JOIN urns d ON d.id = e.dst`
  return `SELECT s.urn AS source, d.urn AS destination, e.type AS type FROM ${from}
    ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY s.urn, d.urn, e.type LIMIT @limit`
}

/**
 * The URNs of the given entity types lie in [from, to): `urn:li:<type>:` for the first type in
 * order up to `urn:li:<type>;` for the last (`;` follows `:`).
 */
function typeRange(types: readonly string[]): [string, string] {
  const sorted = [...types].sort()
  return [`urn:li:${sorted[0]}:`, `urn:li:${sorted[sorted.length - 1]};`]
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
