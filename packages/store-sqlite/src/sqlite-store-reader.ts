import Database from 'better-sqlite3'

/** A latest (version 0) aspect row, as stored. */
export interface LatestAspectRow {
  readonly urn: string
  readonly aspect: string
  readonly value: Record<string, unknown>
}

/** A stored relationship edge. */
export interface StoredEdge {
  readonly source: string
  readonly type: string
  readonly destination: string
  readonly aspect: string
}

/** What {@link SqliteStoreReader.snapshot} gives its callback: reads of one consistent snapshot. */
export interface StoreSnapshot {
  /** The newest change-log sequence number (0 for an empty log). */
  head(): number
  /** Every latest aspect row in (urn, aspect) order, read in pages. */
  latestAspects(pageSize?: number): Iterable<LatestAspectRow>
  /** The stored edges an aspect row produced. */
  edgesOf(urn: string, aspect: string): StoredEdge[]
  /** Edges whose (source, aspect) has no latest aspect row, up to `limit`, and how many there are. */
  orphanEdges(limit: number): { count: number; first: StoredEdge[] }
  /** How many edge rows are stored. */
  edgeCount(): number
  /** The URNs of the entities that have at least one latest aspect row, in order. */
  entities(pageSize?: number): Iterable<string>
  /** The URNs named by change-log entries after `seq`. */
  urnsChangedAfter(seq: number): Set<string>
}

/** Where a layout keeps its rows: the same columns as DataHub's `metadata_aspect_v2` and `edges`. */
interface Layout {
  /** (urn, aspect, version, metadata), read in (urn, aspect) order when the query orders so. */
  readonly aspects: string
  /** (source, type, destination, aspect), looked up by source first. */
  readonly edges: string
  /** Edges whose (source, aspect) has no latest aspect row. */
  readonly orphans: string
}

/** The first layout: URN text in every row. */
const V1: Layout = {
  aspects: 'metadata_aspect_v2',
  edges: 'edges',
  orphans: `FROM edges e WHERE NOT EXISTS (SELECT 1 FROM metadata_aspect_v2 m
    WHERE m.urn = e.source AND m.aspect = e.aspect AND m.version = 0)`,
}

/** The current layout: rows by URN id (see `STORE_DDL`), joined in an order that reads indexes only. */
const V2: Layout = {
  aspects: `(SELECT u.urn AS urn, a.aspect AS aspect, a.version AS version, a.metadata AS metadata
    FROM urns u INDEXED BY urns_by_urn CROSS JOIN aspect_rows a ON a.eid = u.id)`,
  edges: `(SELECT s.urn AS source, e.type AS type, d.urn AS destination, e.aspect AS aspect
    FROM urns s INDEXED BY urns_by_urn CROSS JOIN edge_rows e ON e.src = s.id CROSS JOIN urns d ON d.id = e.dst)`,
  orphans: `FROM (SELECT s.urn AS source, r.type AS type, d.urn AS destination, r.aspect AS aspect
    FROM edge_rows r JOIN urns s ON s.id = r.src JOIN urns d ON d.id = r.dst
    WHERE NOT EXISTS (SELECT 1 FROM aspect_rows m WHERE m.eid = r.src AND m.aspect = r.aspect AND m.version = 0)) e`,
}

/**
 * Read-only access to the embedded store's file for offline tools (`catalog check`, backup
 * manifests): the raw rows, with no DDL run and nothing written, safe while a server writes
 * the same file. Every read of one {@link snapshot} call sees the same committed state. Reads
 * files of either layout (one the catalog has not opened since its upgrade is not migrated).
 */
export class SqliteStoreReader {
  private readonly db: Database.Database

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true })
    this.db.pragma('busy_timeout = 5000')
  }

  /** Runs `fn` in one read transaction. */
  snapshot<T>(fn: (s: StoreSnapshot) => T): T {
    const db = this.db
    const layout = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'urns'").get() ? V2 : V1
    const edgesOf = db.prepare(
      `SELECT source, type, destination, aspect FROM ${layout.edges} WHERE source = ? AND aspect = ?`,
    )
    const s: StoreSnapshot = {
      head: () =>
        Number(
          (db.prepare('SELECT MAX(seq) AS seq FROM change_log').get() as { seq: number | null }).seq ?? 0,
        ),
      latestAspects: (pageSize = 1000) => pages(db, layout, pageSize),
      edgesOf: (urn, aspect) => edgesOf.all(urn, aspect) as StoredEdge[],
      orphanEdges: (limit) => {
        const where = layout.orphans
        const count = (db.prepare(`SELECT count(*) AS n ${where}`).get() as { n: number }).n
        const first = db
          .prepare(`SELECT e.source, e.type, e.destination, e.aspect ${where} LIMIT ?`)
          .all(limit) as StoredEdge[]
        return { count, first }
      },
      edgeCount: () => (db.prepare('SELECT count(*) AS n FROM edges').get() as { n: number }).n,
      entities: (pageSize = 5000) => entityPages(db, layout, pageSize),
      urnsChangedAfter: (seq) =>
        new Set(db.prepare('SELECT DISTINCT urn FROM change_log WHERE seq > ?').pluck().all(seq) as string[]),
    }
    return db.transaction(() => fn(s))()
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}

function* pages(db: Database.Database, layout: Layout, pageSize: number): Iterable<LatestAspectRow> {
  const first = db.prepare(
    `SELECT urn, aspect, metadata FROM ${layout.aspects} WHERE version = 0 ORDER BY urn, aspect LIMIT ?`,
  )
  const next = db.prepare(
    `SELECT urn, aspect, metadata FROM ${layout.aspects}
     WHERE version = 0 AND urn >= @urn AND (urn, aspect) > (@urn, @aspect)
     ORDER BY urn, aspect LIMIT @limit`,
  )
  let last: { urn: string; aspect: string } | undefined
  for (;;) {
    const rows = (last ? next.all({ ...last, limit: pageSize }) : first.all(pageSize)) as Array<{
      urn: string
      aspect: string
      metadata: string
    }>
    for (const r of rows)
      yield { urn: r.urn, aspect: r.aspect, value: JSON.parse(r.metadata) as Record<string, unknown> }
    const end = rows.at(-1)
    if (!end || rows.length < pageSize) return
    last = { urn: end.urn, aspect: end.aspect }
  }
}

function* entityPages(db: Database.Database, layout: Layout, pageSize: number): Iterable<string> {
  const page = db
    .prepare(`SELECT DISTINCT urn FROM ${layout.aspects} WHERE version = 0 AND urn > ? ORDER BY urn LIMIT ?`)
    .pluck()
  let last = ''
  for (;;) {
    const urns = page.all(last, pageSize) as string[]
    yield* urns
    const end = urns.at(-1)
    if (end === undefined || urns.length < pageSize) return
    last = end
  }
}
