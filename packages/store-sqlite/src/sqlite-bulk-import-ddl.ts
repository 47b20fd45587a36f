import type Database from 'better-sqlite3'

/**
 * The bulk import's own tables in the store file (the live store never reads them):
 * - `bulk_import_progress`: per input, how far it got (committed with the data it covers);
 * - `bulk_import_touched`: entities written whose search documents are still to be rebuilt;
 *   `existed` marks entities that had a key aspect before the import first wrote them (their old
 *   document is dropped first).
 */
export const BULK_DDL = `
CREATE TABLE IF NOT EXISTS bulk_import_progress (
  source TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  position INTEGER NOT NULL,
  done INTEGER NOT NULL,
  records INTEGER NOT NULL,
  aspects INTEGER NOT NULL,
  failed INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS bulk_import_touched (
  urn TEXT PRIMARY KEY,
  entity_type TEXT NOT NULL,
  existed INTEGER NOT NULL
) WITHOUT ROWID;
`

/** How far the import of one input got. */
export interface BulkProgress {
  /** The input's key (its absolute path). */
  readonly source: string
  /** Size and modification time: a changed input starts over. */
  readonly fingerprint: string
  /** Records consumed (stored or counted as failed). */
  readonly position: number
  /** 1 once every record was consumed. */
  readonly done: number
  readonly records: number
  readonly aspects: number
  readonly failed: number
}

/**
 * The bulk import's own statements; the rows themselves it writes with the live writer's
 * statements (`prepareWrites`), which it keeps beside these.
 */
export function bulkStatements(db: Database.Database) {
  return {
    progressOf: db.prepare('SELECT * FROM bulk_import_progress WHERE source = ?'),
    saveProgress: db.prepare(
      `INSERT OR REPLACE INTO bulk_import_progress (source, fingerprint, position, done, records, aspects, failed)
       VALUES (@source, @fingerprint, @position, @done, @records, @aspects, @failed)`,
    ),
    // The first touch tells whether the entity was there before the import wrote it.
    touch: db.prepare(
      'INSERT OR IGNORE INTO bulk_import_touched (urn, entity_type, existed) VALUES (?, ?, ?)',
    ),
    touchedPage: db.prepare('SELECT * FROM bulk_import_touched ORDER BY urn LIMIT ?'),
    // A page of touched entities after a URN with their latest rows, raw, in URN order (an entity
    // with no rows left: one row of nulls). Aspects unordered within an entity: the reader orders.
    touchedLatest: db
      .prepare(
        `SELECT t.urn, t.entity_type, a.aspect, a.metadata
         FROM (SELECT urn, entity_type FROM bulk_import_touched WHERE urn > ? ORDER BY urn LIMIT ?) t
         LEFT JOIN urns u ON u.urn = t.urn LEFT JOIN aspect_rows a ON a.eid = u.id AND a.version = 0
         ORDER BY t.urn`,
      )
      .raw(),
    touchedCount: db.prepare('SELECT COUNT(*) AS n FROM bulk_import_touched'),
    untouch: db.prepare('DELETE FROM bulk_import_touched WHERE urn = ?'),
    // Aspect rows and edges by URN id (see STORE_DDL).
    exists: db.prepare(
      'SELECT 1 FROM urns u CROSS JOIN aspect_rows a ON a.eid = u.id WHERE u.urn = ? AND a.aspect = ? AND a.version = 0',
    ),
    putRow: db.prepare(
      `INSERT OR REPLACE INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  }
}
