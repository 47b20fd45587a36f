import type Database from 'better-sqlite3'

/**
 * The index's position in the store's change log, kept in its `meta` table. It is written in the
 * same transaction as the documents a batch of log entries changed, so a crash loses both or
 * neither and the log tail is simply applied again; it never moves back.
 */
export class IndexCursor {
  private readonly get: Database.Statement
  private readonly put: Database.Statement

  constructor(db: Database.Database) {
    this.get = db.prepare("SELECT value FROM meta WHERE key = 'cursor'")
    this.put = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('cursor', ?)")
  }

  /** The log position applied so far (0 for a new index). */
  read(): number {
    const row = this.get.get() as { value: string } | undefined
    return row ? Number(row.value) : 0
  }

  /** Moves the cursor to `cursor` unless it is past it already; returns where it stands. */
  advance(cursor: number): number {
    const next = Math.max(this.read(), cursor)
    this.put.run(String(next))
    return next
  }
}
