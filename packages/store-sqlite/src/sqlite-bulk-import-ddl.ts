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
    head: db.prepare('SELECT MAX(seq) AS seq FROM change_log'),
    // Aspect rows and edges by URN id (see STORE_DDL).
    exists: db.prepare(
      'SELECT 1 FROM urns u CROSS JOIN aspect_rows a ON a.eid = u.id WHERE u.urn = ? AND a.aspect = ? AND a.version = 0',
    ),
    latest: db.prepare('SELECT metadata, run FROM aspect_rows WHERE eid = ? AND aspect = ? AND version = 0'),
    maxVersion: db.prepare(
      'SELECT COALESCE(MAX(version), 0) AS v FROM aspect_rows WHERE eid = ? AND aspect = ?',
    ),
    // System metadata and actor as columns and ids (see STORE_DDL and SystemColumns).
    insert: db.prepare(
      `INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
       VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    putRow: db.prepare(
      `INSERT OR REPLACE INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    archive: db.prepare(
      `INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
       SELECT eid, aspect, ?, metadata, createdon, createdby, observed, run, lastrun, sysextra
       FROM aspect_rows WHERE eid = ? AND aspect = ? AND version = 0`,
    ),
    updateLatest: db.prepare(
      `UPDATE aspect_rows SET metadata = ?, createdon = ?, createdby = ?, observed = ?, run = ?, lastrun = ?, sysextra = ?
       WHERE eid = ? AND aspect = ? AND version = 0`,
    ),
    touchSystemMetadata: db.prepare(
      'UPDATE aspect_rows SET observed = ?, run = ?, lastrun = ?, sysextra = ? WHERE eid = ? AND aspect = ? AND version = 0',
    ),
    deleteAspect: db.prepare('DELETE FROM aspect_rows WHERE eid = ? AND aspect = ?'),
    deleteEntity: db.prepare('DELETE FROM aspect_rows WHERE eid = ?'),
    deleteTimeseries: db.prepare('DELETE FROM timeseries WHERE urn = ?'),
    deleteEdgesOf: db.prepare('DELETE FROM edge_rows WHERE src = ? AND aspect = ?'),
    deleteOutgoing: db.prepare('DELETE FROM edge_rows WHERE src = ?'),
    deleteIncoming: db.prepare('DELETE FROM edge_rows WHERE dst = ?'),
    insertEdge: db.prepare('INSERT OR IGNORE INTO edge_rows (src, type, dst, aspect) VALUES (?, ?, ?, ?)'),
    putTimeseries: db.prepare(
      `INSERT OR REPLACE INTO timeseries (entity_type, aspect, urn, timestamp_millis, partition_key, message_id, value, system_metadata)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  }
}
