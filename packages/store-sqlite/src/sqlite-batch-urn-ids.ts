import type Database from 'better-sqlite3'
import { UrnIds } from './sqlite-urn-ids.js'

/**
 * The writer's URN ids ({@link UrnIds}), remembered while one batch is applied (null: the URN has
 * none yet), so a new entity's rows and its edges look its URN up once. Nothing is remembered
 * outside a batch, and each batch starts afresh, so an id given in a transaction that was rolled
 * back is never reused.
 */
export class BatchUrnIds {
  private readonly ids: UrnIds
  private readonly insertUrn: Database.Statement
  private memo: Map<string, number | null> | undefined

  constructor(db: Database.Database) {
    this.ids = new UrnIds(db)
    this.insertUrn = db.prepare('INSERT INTO urns (urn) VALUES (?)')
  }

  /** Starts remembering (a batch's transaction begins). */
  begin(): void {
    this.memo = new Map()
  }

  /** Forgets every id (the batch's transaction ended, committed or not). */
  end(): void {
    this.memo = undefined
  }

  /** The id of `urn`, if the store ever held it. */
  of(urn: string): number | undefined {
    const memo = this.memo
    if (!memo) return this.ids.of(urn)
    const hit = memo.get(urn)
    if (hit !== undefined) return hit ?? undefined
    const id = this.ids.of(urn)
    memo.set(urn, id ?? null)
    return id
  }

  /** The id of `urn`, given now if it had none (inside the write's transaction). */
  ensure(urn: string): number {
    const memo = this.memo
    if (!memo) return this.ids.ensure(urn)
    const known = this.of(urn)
    if (known !== undefined) return known
    const id = Number(this.insertUrn.run(urn).lastInsertRowid)
    memo.set(urn, id)
    return id
  }
}
