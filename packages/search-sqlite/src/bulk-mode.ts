import type Database from 'better-sqlite3'
import { createSecondaryIndexes, dropSecondaryIndexes, STAGED_DDL } from './ddl.js'

/** FTS5's default `hashsize`: pending words written out past 1 MB. */
const FTS_HASH_BYTES = 1024 * 1024
/** `hashsize` during a bulk build: a page of 5,000 documents' words stay in memory until its commit. */
const BULK_FTS_HASH_BYTES = 64 * 1024 * 1024

/**
 * Switches an index file in and out of bulk building (`catalog import`): larger FTS5 segments,
 * and, for a build larger than the file, the indexes only queries read dropped and the new
 * documents' exact values and URN keys staged by document (see `STAGED_DDL`), both made once,
 * sorted, at its end.
 */
export const bulkMode = {
  /**
   * Prepares a build of about `expected` new documents: when the file holds fewer documents
   * than that, drops the query-only indexes and creates the staging tables. Returns the indexes
   * dropped (none: nothing is staged).
   */
  begin(db: Database.Database, expected: number): string[] {
    // FTS5 keeps a transaction's new words in memory up to `hashsize` bytes, then writes them as
    // a segment that later merges rewrite: a page of thousands of documents flushed in one
    // segment instead of dozens is fewer, larger segments and less merging. Only memory while a
    // write is pending depends on it (a small write never reaches it), so a build killed before
    // `end` leaves nothing to undo.
    ftsConfig(db, 'hashsize', BULK_FTS_HASH_BYTES)
    const documents = (db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n
    if (documents >= expected) return []
    db.exec(STAGED_DDL)
    return dropSecondaryIndexes(db)
  },

  /** Whether the staging tables exist (a build under way, or one killed before its end). */
  staging(db: Database.Database): boolean {
    return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'exact_staged'").get() !== undefined
  },

  /**
   * Ends a build: moves the staged rows, creates the indexes {@link begin} dropped and
   * checkpoints the WAL. Also what an open does after a build was killed (see {@link settle}).
   */
  end(db: Database.Database): void {
    ftsConfig(db, 'hashsize', FTS_HASH_BYTES)
    db.transaction(() => unstageAll(db))()
    createSecondaryIndexes(db)
    db.pragma('wal_checkpoint(TRUNCATE)')
  },

  /** At open: moves the rows a killed build left staged, if any. */
  settle(db: Database.Database): void {
    if (bulkMode.staging(db)) db.transaction(() => unstageAll(db))()
  },
}

/** Moves every staged row to its table, in the table's key order, and drops the staging tables. */
function unstageAll(db: Database.Database): void {
  if (!bulkMode.staging(db)) return
  db.exec(`INSERT OR IGNORE INTO exact (field, value, doc_id, variant, num)
      SELECT field, value, doc_id, variant, num FROM exact_staged ORDER BY field, value COLLATE NOCASE, doc_id, variant;
    INSERT OR IGNORE INTO urn_keys (field, key, doc_id)
      SELECT field, key, doc_id FROM urn_keys_staged ORDER BY field, key, doc_id;
    DROP TABLE exact_staged;
    DROP TABLE urn_keys_staged;`)
  // Their pages back to the file system (a file made before incremental vacuum keeps them free).
  db.pragma('incremental_vacuum')
}

/** Sets an FTS5 configuration option (stored in the index file). */
function ftsConfig(db: Database.Database, option: string, value: number): void {
  // An integer: FTS5 refuses the REAL that a JavaScript number binds as.
  db.prepare('INSERT INTO fts (fts, rank) VALUES (?, ?)').run(option, BigInt(value))
}
