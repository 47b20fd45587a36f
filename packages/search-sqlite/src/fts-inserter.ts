import type Database from 'better-sqlite3'
import { ftsColumn } from './ddl.js'

/** Statements kept, one per set of columns a document fills (a few per entity type in practice). */
const MAX_STATEMENTS = 256

/**
 * Inserts FTS rows naming only the columns a document fills: of the ~95 analysed fields a
 * document fills a handful, and binding the others as NULL cost more than the insert itself.
 * The statement of each set of columns is prepared once.
 */
export class FtsInserter {
  private readonly statements = new Map<string, Database.Statement>()
  private readonly columns: readonly string[]

  constructor(
    private readonly db: Database.Database,
    ftsFields: readonly string[],
  ) {
    this.columns = ftsFields.map(ftsColumn)
  }

  /** Inserts row `id` with `texts[i]` in column number `cols[i]` (ascending); nothing when `cols` is empty. */
  insert(id: number, cols: readonly number[], texts: readonly string[]): void {
    if (cols.length === 0) return
    const key = cols.join(',')
    let s = this.statements.get(key)
    if (!s) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear()
      const names = cols.map((c) => this.columns[c] as string)
      s = this.db.prepare(
        `INSERT INTO fts (rowid, ${names.join(', ')}) VALUES (?${', ?'.repeat(names.length)})`,
      )
      this.statements.set(key, s)
    }
    s.run(id, ...texts)
  }
}
