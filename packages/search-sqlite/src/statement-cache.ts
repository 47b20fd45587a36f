import type Database from 'better-sqlite3'

const MAX_STATEMENTS = 400

/** Prepared statements of the queries, by SQL text; emptied when it reaches 400. */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>()

  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let s = this.statements.get(sql)
    if (!s) {
      if (this.statements.size >= MAX_STATEMENTS) this.statements.clear()
      s = this.db.prepare(sql)
      this.statements.set(sql, s)
    }
    return s
  }
}
