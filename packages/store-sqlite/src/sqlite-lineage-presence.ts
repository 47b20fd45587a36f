import type Database from 'better-sqlite3'

/**
 * Which entity types the store holds any entity of, by one seek in the URN index per type
 * (`urn:li:<type>:` is a URN prefix). A lineage walk leaves out the edge types whose far end can
 * only be an entity type the store has none of: at 100,000 datasets and no jobs, an UPSTREAM
 * step from a dataset then reads one index instead of two. A type once seen is kept (an entity
 * removed later costs a needless read, not a wrong answer); absent ones are looked up again
 * after every write ({@link EntityTypePresence.forgetAbsent}).
 */
export class EntityTypePresence {
  private readonly known = new Map<string, boolean>()
  private readonly any: Database.Statement

  constructor(db: Database.Database) {
    this.any = db.prepare('SELECT 1 FROM urns WHERE urn >= ? AND urn < ? LIMIT 1').pluck()
  }

  /** Whether the store holds an entity of `entityType`. */
  has(entityType: string): boolean {
    let present = this.known.get(entityType)
    if (present === undefined) {
      // `;` follows `:`: every URN of the type sorts between the two.
      present = this.any.get(`urn:li:${entityType}:`, `urn:li:${entityType};`) !== undefined
      this.known.set(entityType, present)
    }
    return present
  }

  /** After a write: the types found absent are looked up again. */
  forgetAbsent(): void {
    for (const [type, present] of this.known) if (!present) this.known.delete(type)
  }
}
