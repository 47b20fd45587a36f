import type Database from 'better-sqlite3'

/**
 * A stored value from this many bytes on goes into its entry here rather than in SQL: SQLite's
 * `||` copies the text once per operator after it (a 16 MB value ~8 times, ~26 ms of the event
 * loop on a quiet machine), where JavaScript joins it without copying it until the end.
 */
const LARGE_VALUE_BYTES = 256 * 1024

/**
 * Characters a page holds at most beyond its first entry: a page ends before the entry that
 * would take it past this. Without a bound, 1,000 entries of megabyte values made one string
 * past V8's longest (~512 M characters: the read failed, and the search sync with it, at every
 * try), or a parse on the index's thread that needed more heap than it has.
 */
export const PAGE_CHARS = 32 * 1024 * 1024

/**
 * A change-log row as the JSON of a `ChangeLogEntry` without `created` and `systemMetadata`,
 * written by SQLite: the stored value goes in as it is (it is JSON text), the strings quoted by
 * SQLite, members in the order `changes()` gives them. NULL for a row whose value is large (see
 * above). The audit stamp and system metadata are left out because the feed's one reader, a
 * search index deriving documents, never reads them: they were ~400 of a new dataset's entries'
 * ~1,000 characters, built here, copied to the index's thread and parsed there.
 */
const ENTRY_JSON = `CASE WHEN octet_length(value) >= ${LARGE_VALUE_BYTES} THEN NULL ELSE
  '{"seq":' || seq || ',"urn":' || json_quote(urn)
  || ',"entityType":' || json_quote(entity_type) || ',"aspect":' || json_quote(aspect)
  || ',"change":' || json_quote(change)
  || CASE WHEN value IS NULL THEN '' ELSE ',"value":' || value END
  || CASE WHEN entity_deleted THEN ',"entityDeleted":true' ELSE '' END
  || '}' END`

interface LargeRow {
  readonly seq: number
  readonly urn: string
  readonly entity_type: string
  readonly aspect: string
  readonly change: string
  readonly value: string
  readonly entity_deleted: number
}

/**
 * Pages of the change log as JSON text, built from the stored text without parsing it, for a
 * search index that derives on its own thread: each entry as `changes()` gives it, less its
 * `created` and `systemMetadata` (see {@link ENTRY_JSON}). SQLite writes each entry (~1.7 µs,
 * a third of building it here from row objects); an entry with a large value is joined here
 * instead.
 */
export class ChangeLogJson {
  private readonly page: Database.Statement
  private readonly row: Database.Statement

  constructor(
    db: Database.Database,
    /** Characters a page holds at most beyond its first entry (default {@link PAGE_CHARS}). */
    private readonly pageChars = PAGE_CHARS,
  ) {
    this.page = db
      .prepare(`SELECT seq, ${ENTRY_JSON} FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?`)
      .raw()
    this.row = db.prepare(
      'SELECT seq, urn, entity_type, aspect, change, value, entity_deleted FROM change_log WHERE seq = ?',
    )
  }

  /**
   * The entries after `after` (at most `limit`, and fewer when their text would pass the page's
   * characters; always at least one when there is one), as one JSON array (without `created` and
   * `systemMetadata`).
   */
  read(after: number, limit: number): string {
    const rows = this.page.all(after, limit) as Array<[number, string | null]>
    const out: string[] = []
    let chars = 0
    for (const [seq, json] of rows) {
      const text = json ?? largeEntry(this.row.get(seq) as LargeRow)
      chars += text.length
      if (out.length > 0 && chars > this.pageChars) break
      out.push(text)
    }
    return `[${out.join(',')}]`
  }
}

function largeEntry(r: LargeRow): string {
  const quote = JSON.stringify
  return (
    `{"seq":${r.seq},"urn":${quote(r.urn)},"entityType":${quote(r.entity_type)},"aspect":${quote(r.aspect)}` +
    `,"change":${quote(r.change)},"value":${r.value}${r.entity_deleted ? ',"entityDeleted":true' : ''}}`
  )
}
