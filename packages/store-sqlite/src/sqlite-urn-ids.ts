import type Database from 'better-sqlite3'

/**
 * The integer ids of URNs in the store's `urns` table (see `STORE_DDL`): aspect rows and edges
 * refer to entities by them. An id, once given, stays with its URN.
 */
export class UrnIds {
  private readonly find: Database.Statement
  private readonly add: Database.Statement

  constructor(db: Database.Database) {
    this.find = db.prepare('SELECT id FROM urns WHERE urn = ?').pluck()
    this.add = db.prepare('INSERT INTO urns (urn) VALUES (?)')
  }

  /** The id of `urn`, if the store ever held it. */
  of(urn: string): number | undefined {
    return this.find.get(urn) as number | undefined
  }

  /** The id of `urn`, given now if it had none (call inside the write's transaction). */
  ensure(urn: string): number {
    const id = this.find.get(urn) as number | undefined
    return id ?? Number(this.add.run(urn).lastInsertRowid)
  }
}
