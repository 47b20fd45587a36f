import type { EdgeScanQuery } from '@catalog/store'
import type Database from 'better-sqlite3'
import { typeRange } from './sqlite-edge-scan-sql.js'

/**
 * A scan narrowed to a few entities at one end (their URNs, or entity types with few entities)
 * is driven by them when they are at most this many with fewer edges than this at that end:
 * their edges are read from an index and sorted at once. Otherwise (a tag on every dataset, a
 * type with a million entities, sources with thousands of edges each) the scan goes in steps.
 */
export const FEW_EDGES = 5_000

/**
 * The index reads that decide how the edge scan goes, each bounded: whether anything can match
 * at all, and whether the entities at one end are few enough, with few enough edges, to drive it.
 */
export class EdgeScanPlanner {
  /** Whether any URN lies in [from, to): an entity type with no entity has no edge. */
  private readonly anyUrnIn: Database.Statement
  /** Whether any edge has one of the types (a JSON array): a pass over the incoming index, which stops at the first. */
  private readonly anyEdgeOf: Database.Statement
  /** Ids of the URNs of a JSON array. */
  private readonly idsOf: Database.Statement
  /** Ids of the URNs in [from, to), up to a limit. */
  private readonly idsIn: Database.Statement
  /** Edges at ids (a JSON array), counted up to a limit: [outgoing, incoming] × [any type, of types]. */
  private readonly counts: ReadonlyArray<readonly [Database.Statement, Database.Statement]>

  constructor(db: Database.Database) {
    this.anyUrnIn = db.prepare('SELECT 1 FROM urns WHERE urn >= ? AND urn < ? LIMIT 1').pluck()
    this.anyEdgeOf = db
      .prepare('SELECT 1 FROM edge_rows WHERE +type IN (SELECT value FROM json_each(?)) LIMIT 1')
      .pluck()
    this.idsOf = db.prepare('SELECT id FROM urns WHERE urn IN (SELECT value FROM json_each(?))').pluck()
    this.idsIn = db.prepare('SELECT id FROM urns WHERE urn >= ? AND urn < ? LIMIT ?').pluck()
    const count = (end: string, types: string) =>
      db
        .prepare(
          `SELECT count(*) FROM (SELECT 1 FROM json_each(@ids) j CROSS JOIN edge_rows e ${end} ${types} LIMIT @max)`,
        )
        .pluck()
    const ofTypes = 'WHERE e.type IN (SELECT value FROM json_each(@types))'
    this.counts = [
      [count('ON e.src = j.value', ''), count('ON e.src = j.value', ofTypes)],
      [
        count('INDEXED BY edge_rows_incoming ON e.dst = j.value', ''),
        count('INDEXED BY edge_rows_incoming ON e.dst = j.value', ofTypes),
      ],
    ]
  }

  /**
   * True when no edge can match: an entity type of either end has no entity at all, or no edge
   * has any of the relationship types. Each answers far sooner than a pass of the keyset scan
   * (which reads every source in URN order): an index range, or the incoming index read in
   * its own order up to the first edge of those types.
   */
  matchesNothing(q: EdgeScanQuery): boolean {
    for (const types of [q.sourceTypes, q.destinationTypes]) {
      if (types.length === 0) continue
      if (!types.some((t) => this.anyUrnIn.get(...typeRange([t])) !== undefined)) return true
    }
    return q.types.length > 0 && this.anyEdgeOf.get(JSON.stringify(q.types)) === undefined
  }

  /**
   * The ids (a JSON array) of the destinations the query is narrowed to, when they are few and
   * have few incoming edges (of its relationship types); otherwise undefined.
   */
  fewDestinations(q: EdgeScanQuery): string | undefined {
    let ids: number[]
    if (q.destinationUrns.length > 0) ids = this.idsOf.all(JSON.stringify(q.destinationUrns)) as number[]
    else if (q.destinationTypes.length > 0) {
      ids = []
      for (const type of new Set(q.destinationTypes)) {
        ids.push(...(this.idsIn.all(...typeRange([type]), FEW_EDGES + 1) as number[]))
        if (ids.length > FEW_EDGES) return undefined
      }
    } else return undefined
    const json = JSON.stringify(ids)
    return ids.length <= FEW_EDGES && this.fewEdges(json, false, q.types) ? json : undefined
  }

  /** Whether the source URNs asked for have fewer than {@link FEW_EDGES} outgoing edges (of the types). */
  fewSourceEdges(q: EdgeScanQuery): boolean {
    return this.fewEdges(JSON.stringify(this.idsOf.all(JSON.stringify(q.sourceUrns))), true, q.types)
  }

  private fewEdges(ids: string, outgoing: boolean, types: readonly string[]): boolean {
    const [any, ofTypes] = this.counts[outgoing ? 0 : 1] as readonly [Database.Statement, Database.Statement]
    const args = { ids, max: FEW_EDGES }
    const n = (
      types.length > 0 ? ofTypes.get({ ...args, types: JSON.stringify(types) }) : any.get(args)
    ) as number
    return n < FEW_EDGES
  }
}
