import { softDeleted } from './schema.js'

/** The SQL function that puts an edge in a slice: FNV-1a of (source, destination, type) modulo the slice count. */
export const SLICE_FN = 'catalog_edge_slice'

/**
 * How a statement of the edge scan reads: which filters it applies and what drives it; one
 * prepared statement per combination.
 */
export interface EdgeScanShape {
  readonly types: boolean
  readonly sourceTypes: boolean
  readonly destinationTypes: boolean
  readonly sourceUrns: boolean
  readonly destinationUrns: boolean
  readonly after: boolean
  readonly live: boolean
  readonly slice: boolean
  /** Driven by the incoming edges of a few destinations (`@destinationIds`, a JSON array), then sorted. */
  readonly byDestination: boolean
  /** Sources limited to the step's range of the URN index, `[@lo, @hi)`. */
  readonly stepped: boolean
}

/** `dataset` of a URN column holding `urn:li:dataset:(...)`. */
const entityType = (column: string) => `substr(${column}, 8, instr(substr(${column}, 8), ':') - 1)`

/** True when the entity whose URN id is in `column` is soft-deleted. */
const removed = (column: string) => softDeleted(column, 'm')

const inList = (expr: string, param: string) => `${expr} IN (SELECT value FROM json_each(@${param}))`

/**
 * The statement of one read of the edge scan: distinct-able rows (source, destination, type) in
 * that order, at most `@limit`. Sources come in URN order from the `urns` index (each source's
 * edges from the primary key of `edge_rows`, sorted by destination URN): no sort of the whole
 * table. Driven by a few destinations, their incoming edges are read and sorted.
 */
export function edgeScanSql(shape: EdgeScanShape): string {
  const where: string[] = []
  if (shape.sourceUrns) where.push(inList('s.urn', 'sourceUrns'))
  if (shape.destinationUrns) where.push(inList('d.urn', 'destinationUrns'))
  if (shape.types) where.push(inList('e.type', 'types'))
  if (shape.stepped) where.push('s.urn >= @lo', 's.urn < @hi')
  if (shape.sourceTypes) where.push(inList(entityType('s.urn'), 'sourceTypes'))
  if (shape.destinationTypes) where.push(inList(entityType('d.urn'), 'destinationTypes'))
  if (shape.after) where.push('(s.urn, d.urn, e.type) > (@s, @d, @t)')
  if (shape.slice) where.push(`${SLICE_FN}(s.urn, d.urn, e.type, @sliceMax) = @sliceId`)
  // The destination's check names d (d.id = e.dst): SQLite makes it once d is read, after the
  // filters on d, so an edge they drop costs no lookup of its destination's status.
  if (shape.live) where.push(`NOT ${removed('e.src')}`, `NOT ${removed('d.id')}`)
  const from = shape.byDestination
    ? `json_each(@destinationIds) j CROSS JOIN edge_rows e INDEXED BY edge_rows_incoming ON e.dst = j.value
       CROSS JOIN urns s ON s.id = e.src CROSS JOIN urns d ON d.id = e.dst`
    : `urns s${shape.sourceUrns ? '' : ' INDEXED BY urns_by_urn'} CROSS JOIN edge_rows e ON e.src = s.id CROSS JOIN urns d ON d.id = e.dst`
  return `SELECT s.urn AS source, d.urn AS destination, e.type AS type FROM ${from}
    ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
    ORDER BY s.urn, d.urn, e.type LIMIT @limit`
}

/** Above every URN (all begin `urn:`): the end of an open range of the URN index. */
export const PAST_EVERY_URN = '\u{10FFFF}'

/**
 * The URNs of the given entity types lie in [from, to): `urn:li:<type>:` for the first type in
 * order up to `urn:li:<type>;` for the last (`;` follows `:`).
 */
export function typeRange(types: readonly string[]): [string, string] {
  const sorted = [...types].sort()
  return [`urn:li:${sorted[0]}:`, `urn:li:${sorted[sorted.length - 1]};`]
}

/** FNV-1a (32 bits) of `text`, modulo `max`. */
export function sliceOf(text: string, max: number): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash % max
}
