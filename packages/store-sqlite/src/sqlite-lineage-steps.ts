import type Database from 'better-sqlite3'
import { softDeleted } from './schema.js'

/**
 * One edge row a step of the walk reads (statements in raw mode): near id, relationship type,
 * far id, and 1 when the edge was read OUTGOING (0: INCOMING).
 */
export type StepRow = [near: number, type: string, far: number, out: number]

/**
 * A step row read past the last hop: also the far entity's URN (null: no such entity) and 1 when
 * it is soft-deleted (always 0 when soft-deleted entities count).
 */
export type ProbeRow = [
  near: number,
  type: string,
  far: number,
  out: number,
  urn: string | null,
  removed: number,
]

/** An entity's URN and whether it is soft-deleted (1), by id. */
export type EntityRow = [id: number, urn: string, removed: number]

/** True when the entity of URN id `id` is soft-deleted. */
const removed = (id: string) => softDeleted(id, 'a')

const literals = (types: readonly string[]) => types.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ')

/**
 * The statements of a walk: one step reads the edges of a chunk of near entities (a JSON array
 * of ids) of the given types, OUTGOING (`out`, from the primary key of `edge_rows`) then INCOMING
 * (`in`, from `edge_rows_incoming`), in one statement answered by the indexes alone. json_each
 * drives each half, so rows come in the chunk's order (sorted by URN), then by type, then far
 * id. The types are few and fixed (the registry's), written into the statement as literals;
 * step statements are prepared at first use. {@link LineageSteps.entities} reads the URN and
 * soft-deleted state of a set of far entities in one query; a probe (past the last hop, where
 * the walk stops at the first entity it may reach) reads them with each row instead.
 */
export class LineageSteps {
  private readonly steps = new Map<string, Database.Statement>()
  /** URN and soft-deleted state of the entities of a JSON array of ids (ids without a URN row are left out). */
  readonly entities: Database.Statement

  constructor(private readonly db: Database.Database) {
    this.entities = db
      .prepare(
        `SELECT u.id, u.urn, ${removed('u.id')} FROM json_each(?) j CROSS JOIN urns u ON u.id = j.value`,
      )
      .raw()
  }

  /** The step statement for these OUTGOING and INCOMING types (JSON arrays), or undefined for none. */
  statement(out: string, inc: string): Database.Statement | undefined {
    return this.prepared(out, inc, undefined)
  }

  /** The step statement whose rows also carry the far entity's URN and soft-deleted state ({@link ProbeRow}). */
  probe(out: string, inc: string, withRemoved: boolean): Database.Statement | undefined {
    return this.prepared(out, inc, withRemoved)
  }

  private prepared(
    out: string,
    inc: string,
    withRemoved: boolean | undefined,
  ): Database.Statement | undefined {
    const key = `${out}\u0000${inc}\u0000${withRemoved}`
    let stmt = this.steps.get(key)
    if (stmt) return stmt
    const outTypes = JSON.parse(out) as string[]
    const inTypes = JSON.parse(inc) as string[]
    // Past the last hop: the far entity's URN and state with the row.
    const far = (id: string) =>
      withRemoved === undefined
        ? ['', '']
        : [`, u.urn, ${withRemoved ? '0' : removed(id)}`, ` LEFT JOIN urns u ON u.id = ${id}`]
    const parts: string[] = []
    if (outTypes.length > 0) {
      const [columns, join] = far('e.dst')
      parts.push(`SELECT e.src, e.type, e.dst, 1${columns} FROM json_each(@ids) j
        CROSS JOIN edge_rows e ON e.src = j.value AND e.type IN (${literals(outTypes)})${join}`)
    }
    if (inTypes.length > 0) {
      const [columns, join] = far('e.src')
      parts.push(`SELECT e.dst, e.type, e.src, 0${columns} FROM json_each(@ids) j
        CROSS JOIN edge_rows e INDEXED BY edge_rows_incoming ON e.dst = j.value AND e.type IN (${literals(inTypes)})${join}`)
    }
    if (parts.length === 0) return undefined
    stmt = this.db.prepare(parts.join(' UNION ALL ')).raw()
    this.steps.set(key, stmt)
    return stmt
  }
}
