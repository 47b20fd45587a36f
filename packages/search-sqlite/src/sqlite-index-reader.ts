import Database from 'better-sqlite3'

/** One stored search document, as far as offline tools need it. */
export interface IndexedDocumentRow {
  readonly urn: string
  readonly entityType: string
  /** Soft-deleted (`status.removed`): kept in the index, hidden from results. */
  readonly removed: boolean
}

/**
 * Read-only access to the embedded search index's file for offline tools (`catalog check`,
 * backup manifests): its durable cursor and its documents, with no DDL run and nothing
 * written, safe while a server writes the same file. Each {@link snapshot} call reads one
 * committed state.
 */
export class SqliteIndexReader {
  private readonly db: Database.Database

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true })
    this.db.pragma('busy_timeout = 5000')
  }

  /** The change-log position the index has applied (its durable cursor). */
  cursor(): number {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'cursor'").get() as
      | { value: string }
      | undefined
    return row ? Number(row.value) : 0
  }

  /** The cursor and every document's URN, type and flag, read in one snapshot. */
  snapshot(): { cursor: number; documents: IndexedDocumentRow[] } {
    return this.db.transaction(() => {
      const cursor = this.cursor()
      const documents = (
        this.db.prepare('SELECT urn, entity_type, removed FROM docs ORDER BY urn').raw().all() as Array<
          [string, string, number]
        >
      ).map(([urn, entityType, removed]) => ({ urn, entityType, removed: removed === 1 }))
      return { cursor, documents }
    })()
  }

  close(): void {
    if (this.db.open) this.db.close()
  }
}
