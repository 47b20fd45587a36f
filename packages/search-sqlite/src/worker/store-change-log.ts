import { type ChangeLogEntry, UnavailableError } from '@catalog/core'
import Database from 'better-sqlite3'

/**
 * Characters of stored values a page holds at most beyond its first entry: a page ends before
 * the entry that would take it past this, so 1,000 entries of megabyte values are never parsed
 * (and held) at once. The same bound as the store's JSON feed.
 */
const PAGE_VALUE_CHARS = 32 * 1024 * 1024

/**
 * The embedded metadata store's change log (its `change_log` table: `seq`, `urn`, `entity_type`,
 * `aspect`, `change`, `value` as JSON text, `entity_deleted`), read without `created` and
 * `system_metadata`, which deriving documents never reads.
 */
const PAGE_SQL = `SELECT seq, urn, entity_type, aspect, change, entity_deleted, value
  FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?`

type Row = [number, string, string, string, ChangeLogEntry['change'], number, string | null]

/**
 * Reads the embedded store's change log on the search thread's own read-only connection to the
 * store's file: in one process the index reads the entries it applies itself, so a page is
 * never built as text on the server's event loop (~5 MB per 1,000 new datasets) nor copied
 * between threads. WAL lets this connection read beside the store's writer: a read sees every
 * commit made before it starts, so an entry acknowledged to a client is found by the next read.
 */
export class StoreChangeLog {
  private readonly db: Database.Database
  private readonly page: Database.Statement

  constructor(
    readonly file: string,
    /** Value characters a page holds at most beyond its first entry (default {@link PAGE_VALUE_CHARS}). */
    private readonly pageChars = PAGE_VALUE_CHARS,
  ) {
    try {
      this.db = new Database(file, { readonly: true, fileMustExist: true })
    } catch (err) {
      throw new UnavailableError(
        `the search index cannot read the metadata store's change log at ${file}: ${(err as Error).message}`,
        { cause: err },
      )
    }
    // A small page cache: each page of the log is read once, just after it was written (and so
    // mostly from the WAL); the store's own connection keeps the hot pages.
    this.db.pragma('cache_size = -2048')
    this.page = this.db.prepare(PAGE_SQL).raw()
  }

  /**
   * The entries with `seq > after`, in order, at most `limit`, and fewer when their values would
   * pass the page's characters (always at least one when there is one). Entries leave out
   * `created` and `systemMetadata`.
   */
  read(after: number, limit: number): ChangeLogEntry[] {
    const entries: ChangeLogEntry[] = []
    let chars = 0
    // Iterated, not read whole: the rows after the bound are never read, and breaking out of the
    // loop ends the statement (and its read transaction) at once.
    for (const row of this.page.iterate(after, limit) as IterableIterator<Row>) {
      const [seq, urn, entityType, aspect, change, entityDeleted, value] = row
      chars += value?.length ?? 0
      if (entries.length > 0 && chars > this.pageChars) break
      entries.push({
        seq,
        urn,
        entityType,
        aspect,
        change,
        ...(value !== null ? { value: JSON.parse(value) as Record<string, unknown> } : {}),
        ...(entityDeleted ? { entityDeleted: true } : {}),
      } as ChangeLogEntry)
    }
    return entries
  }

  close(): void {
    this.db.close()
  }
}
