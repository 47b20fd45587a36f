import { InvalidInputError } from '@catalog/core'
import type { RelationshipPage, RelationshipQuery } from '@catalog/store'
import type { Neo4jConnection } from './connection.js'
import { RELATIONSHIPS } from './cypher-graph.js'
import { int } from './mapping.js'

/** Relationship reads of the Neo4j store: native traversals over the entity graph. */
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
}
