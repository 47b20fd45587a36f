import type Database from 'better-sqlite3'
import { createSecondaryIndexes, dropSecondaryIndexes } from './ddl.js'

/** FTS5's default `hashsize`: pending words written out past 1 MB. */
const FTS_HASH_BYTES = 1024 * 1024
/** `hashsize` during a bulk build: a page of 5,000 documents' words stay in memory until its commit. */
const BULK_FTS_HASH_BYTES = 64 * 1024 * 1024

/**
 * Switches an index file in and out of bulk building (`catalog import`): larger FTS5 segments,
 * and the indexes only queries read dropped while it runs, built once, sorted, at its end.
 */
export const bulkMode = {
  /**
   * Prepares a build of about `expected` new documents: when the file holds fewer documents
   * than that, drops the query-only indexes. Returns the indexes dropped.
   */
  begin(db: Database.Database, expected: number): string[] {
    // FTS5 keeps a transaction's new words in memory up to `hashsize` bytes, then writes them as
    // a segment that later merges rewrite: a page of thousands of documents flushed in one
    // segment instead of dozens is fewer, larger segments and less merging. Only memory while a
    // write is pending depends on it (a small write never reaches it), so a build killed before
    // `end` leaves nothing to undo.
    ftsConfig(db, 'hashsize', BULK_FTS_HASH_BYTES)
    const documents = (db.prepare('SELECT count(*) AS n FROM docs').get() as { n: number }).n
    return documents >= expected ? [] : dropSecondaryIndexes(db)
  },

  /** Ends a build: creates the indexes {@link begin} dropped and checkpoints the WAL. */
  end(db: Database.Database): void {
    ftsConfig(db, 'hashsize', FTS_HASH_BYTES)
    createSecondaryIndexes(db)
    db.pragma('wal_checkpoint(TRUNCATE)')
  },
}

/** Sets an FTS5 configuration option (stored in the index file). */
function ftsConfig(db: Database.Database, option: string, value: number): void {
  // An integer: FTS5 refuses the REAL that a JavaScript number binds as.
  db.prepare('INSERT INTO fts (fts, rank) VALUES (?, ?)').run(option, BigInt(value))
}
