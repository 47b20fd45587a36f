import type Database from 'better-sqlite3'

/**
 * A stored value from this many bytes on goes into its entry here rather than in SQL: SQLite's
 * `||` copies the text once per operator after it (a 16 MB value ~8 times, ~26 ms of the event
 * loop on a quiet machine), where JavaScript joins it without copying it until the end.
 */
const LARGE_VALUE_BYTES = 256 * 1024

/**
 * A change-log row as the JSON of a `ChangeLogEntry`, written by SQLite: the stored value and
 * system metadata go in as they are (they are JSON text), the strings quoted by SQLite, members
 * in the order `changes()` gives them. NULL for a row whose value is large (see above).
 */
const ENTRY_JSON = `CASE WHEN octet_length(value) >= ${LARGE_VALUE_BYTES} THEN NULL ELSE
  '{"seq":' || seq || ',"urn":' || json_quote(urn)
  || ',"entityType":' || json_quote(entity_type) || ',"aspect":' || json_quote(aspect)
  || ',"change":' || json_quote(change)
  || CASE WHEN value IS NULL THEN '' ELSE ',"value":' || value END
  || CASE WHEN entity_deleted THEN ',"entityDeleted":true' ELSE '' END
  || ',"created":{"time":' || created_on || ',"actor":' || json_quote(created_by) || '}'
  || CASE WHEN system_metadata IS NULL OR system_metadata = '' THEN '' ELSE ',"systemMetadata":' || system_metadata END
  || '}' END`

interface LargeRow {
  readonly seq: number
  readonly urn: string
  readonly entity_type: string
  readonly aspect: string
  readonly change: string
  readonly value: string
  readonly entity_deleted: number
  readonly created_on: number
  readonly created_by: string
  readonly system_metadata: string | null
}

/**
 * Pages of the change log as JSON text, built from the stored text without parsing it, for a
 * search index that derives on its own thread. SQLite writes each entry (~1.7 µs, a third of
 * building it here from row objects); an entry with a large value is joined here instead.
 */
export class ChangeLogJson {
  private readonly page: Database.Statement
  private readonly row: Database.Statement

  constructor(db: Database.Database) {
    this.page = db
      .prepare(`SELECT seq, ${ENTRY_JSON} FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?`)
      .raw()
    this.row = db.prepare('SELECT * FROM change_log WHERE seq = ?')
  }

  /** The entries after `after` (at most `limit`), as one JSON array. */
  read(after: number, limit: number): string {
    const rows = this.page.all(after, limit) as Array<[number, string | null]>
    return `[${rows.map(([seq, json]) => json ?? largeEntry(this.row.get(seq) as LargeRow)).join(',')}]`
  }
}

function largeEntry(r: LargeRow): string {
  const quote = JSON.stringify
  return (
    `{"seq":${r.seq},"urn":${quote(r.urn)},"entityType":${quote(r.entity_type)},"aspect":${quote(r.aspect)}` +
    `,"change":${quote(r.change)},"value":${r.value}${r.entity_deleted ? ',"entityDeleted":true' : ''}` +
    `,"created":{"time":${r.created_on},"actor":${quote(r.created_by)}}` +
    (r.system_metadata ? `,"systemMetadata":${r.system_metadata}` : '') +
    '}'
  )
}
