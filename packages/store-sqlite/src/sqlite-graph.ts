import type {
  EdgeScanPage,
  EdgeScanQuery,
  LineagePage,
  LineageQuery,
  RelationshipPage,
  RelationshipQuery,
} from '@catalog/store'
import type Database from 'better-sqlite3'
import { SqliteEdgeScan } from './sqlite-edge-scan.js'
import { SqliteLineage } from './sqlite-lineage.js'
import { SqliteRelationships } from './sqlite-relationships.js'

/**
 * Relationship reads, the edge scan and lineage traversal over the edge table of the embedded
 * store (`edge_rows`, keyed by integer URN ids); each is its own module.
 */
export class SqliteGraph {
  private readonly edgeScan: SqliteEdgeScan
  private readonly oneHop: SqliteRelationships
  private readonly walk: SqliteLineage

  constructor(db: Database.Database) {
    this.edgeScan = new SqliteEdgeScan(db)
    this.oneHop = new SqliteRelationships(db)
    this.walk = new SqliteLineage(db)
  }

  /** One page of the keyset scan over all edges; see {@link GraphStore.scanEdges}. */
  scanEdges(q: EdgeScanQuery): Promise<EdgeScanPage> {
    return this.edgeScan.scan(q)
  }

  /** Distinct (type, entity) pairs at `q.urn`, ordered by type then entity. */
  relationships(q: RelationshipQuery): RelationshipPage {
    return this.oneHop.page(q)
  }

  /** Bounded breadth-first lineage; see {@link GraphStore.lineage}. */
  lineage(q: LineageQuery): Promise<LineagePage> {
    return this.walk.lineage(q)
  }
}
