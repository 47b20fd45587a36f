import { InvalidInputError } from '@catalog/core'
import type {
  EdgeKey,
  EdgeScanPage,
  EdgeScanQuery,
  LineagePage,
  LineageQuery,
  RelationshipPage,
  RelationshipQuery,
} from '@catalog/store'
import type { Neo4jConnection } from './connection.js'
import { EDGE_SCAN, LINEAGE_LEVEL, RELATIONSHIPS } from './cypher-graph.js'
import { isSoftDeleted, type LevelRow, lineagePlan, traverse } from './lineage.js'
import { int } from './mapping.js'

/** The aspect whose latest `removed: true` marks an entity soft-deleted. */
export const STATUS_ASPECT = 'status'

/**
 * Relationship reads and lineage of the Neo4j store: native traversals over the entity graph.
 *
 * Lineage expands level by level, one parameterized query per level over the whole
 * frontier (`LINEAGE_LEVEL`), rather than with one variable-length pattern: a
 * `[*1..n]` pattern enumerates paths (exponential on diamond-shaped lineage) instead of
 * entities, cannot stop at soft-deleted entities whose status is JSON in an aspect row,
 * and its `LIMIT` cuts paths in arbitrary order, not entities in (degree, urn) order.
 * Level by level, the visited set travels as a parameter (each entity is expanded once, so
 * cycles end), the node budget becomes the level query's `LIMIT`, and the time budget is
 * checked between levels and bounds every query as its transaction timeout.
 */
export class Neo4jGraph {
  constructor(private readonly connection: Neo4jConnection) {}

  /**
   * Distinct (type, entity) pairs at `urn` in the query's direction, ordered by type then
   * URN, one page of them and their total.
   */
  relationships(q: RelationshipQuery): Promise<RelationshipPage> {
    const statements = RELATIONSHIPS[q.direction]
    if (!statements) return Promise.reject(new InvalidInputError(`unknown direction '${q.direction}'`))
    return this.connection.read(async (tx) => {
      const [counted] = await tx.run(statements.count, { urn: q.urn, types: [...q.types] })
      const rows = await tx.run(statements.page, {
        urn: q.urn,
        types: [...q.types],
        start: int(q.start),
        count: int(q.count),
      })
      return {
        total: Number(counted?.total ?? 0),
        relationships: rows.map((r) => ({ type: String(r.type), entity: String(r.entity) })),
      }
    }, 'relationship read')
  }

  /** Bounded breadth-first lineage; see {@link GraphStore.lineage}. */
  lineage(q: LineageQuery): Promise<LineagePage> {
    const { types, specs } = lineagePlan(q.edges, q.direction)
    if (specs.length === 0) return Promise.resolve({ total: 0, results: [], isPartial: false })
    return traverse(q, (level) =>
      this.connection.read(
        async (tx) =>
          (await tx.run(LINEAGE_LEVEL, {
            frontier: [...level.frontier],
            types,
            visited: [...level.visited],
            after: level.after,
            specs,
            limit: int(level.limit),
            statusAspect: STATUS_ASPECT,
          })) as unknown as LevelRow[],
        'lineage read',
        { timeoutMs: level.timeoutMs },
      ),
    )
  }

  /**
   * One page of the keyset scan over all edges (see {@link GraphStore.scanEdges}), in one read
   * transaction: stretches of `count + 1` edges past the cursor, dropping those with a
   * soft-deleted end unless asked for, until a page and one edge more are found or the edges end.
   */
  scanEdges(q: EdgeScanQuery): Promise<EdgeScanPage> {
    const want = q.count + 1
    return this.connection.read(async (tx) => {
      const kept: EdgeKey[] = []
      let after: EdgeKey | undefined = q.after
      for (;;) {
        const rows = await tx.run(EDGE_SCAN, {
          types: [...q.types],
          sourceUrns: [...q.sourceUrns],
          destinationUrns: [...q.destinationUrns],
          sourcePrefixes: q.sourceTypes.map((type) => `urn:li:${type}:`),
          destinationPrefixes: q.destinationTypes.map((type) => `urn:li:${type}:`),
          after: after ? { ...after } : null,
          sliceMax: q.slice ? int(q.slice.max) : null,
          sliceId: q.slice ? int(q.slice.id) : null,
          limit: int(want),
          statusAspect: STATUS_ASPECT,
        })
        for (const row of rows) {
          const edge = {
            source: String(row.source),
            destination: String(row.destination),
            type: String(row.type),
          }
          after = edge
          const live =
            !isSoftDeleted(row.sourceStatus as string | null) &&
            !isSoftDeleted(row.destinationStatus as string | null)
          if (q.includeSoftDeleted || live) kept.push(edge)
          if (kept.length === want) break
        }
        if (kept.length === want || rows.length < want) break
      }
      if (kept.length <= q.count) return { edges: kept }
      const edges = kept.slice(0, q.count)
      return { edges, next: edges[edges.length - 1] as EdgeKey }
    }, 'relationship scroll')
  }
}
