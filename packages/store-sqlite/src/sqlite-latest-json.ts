import type { StoredAspectJson } from '@catalog/store'
import type Database from 'better-sqlite3'

/** A row as read: urn, aspect, version, metadata, systemmetadata, createdon, createdby. */
type Row = [string, string, number, string, string | null, number, string]

const COLUMNS = 'u.urn, a.aspect, a.version, a.metadata, a.systemmetadata, a.createdon, a.createdby'
const JOINED = 'urns u CROSS JOIN aspect_rows a ON a.eid = u.id'

/**
 * The latest aspect rows of entities with their values as the stored JSON text (see
 * `AspectStore.latestJson`): one statement for one URN (or one aspect of it) or for a whole
 * batch, rows as arrays, in (urn, aspect) order as `latest` reads them.
 */
export class SqliteLatestJson {
  private readonly one: Database.Statement
  private readonly oneAspect: Database.Statement
  private readonly batch: Database.Statement

  constructor(db: Database.Database) {
    this.one = db
      .prepare(`SELECT ${COLUMNS} FROM ${JOINED} WHERE u.urn = ? AND a.version = 0 ORDER BY a.aspect`)
      .raw()
    this.oneAspect = db
      .prepare(`SELECT ${COLUMNS} FROM ${JOINED} WHERE u.urn = ? AND a.aspect = ? AND a.version = 0`)
      .raw()
    this.batch = db
      .prepare(
        `SELECT ${COLUMNS} FROM ${JOINED}
         WHERE u.urn IN (SELECT value FROM json_each(?)) AND a.version = 0 ORDER BY u.urn, a.aspect`,
      )
      .raw()
  }

  read(urns: readonly string[], aspects?: readonly string[]): Map<string, StoredAspectJson[]> {
    const out = new Map<string, StoredAspectJson[]>()
    for (const urn of urns) out.set(urn, [])
    if (urns.length === 0) return out
    const wanted = aspects && aspects.length > 0 ? new Set(aspects) : undefined
    const rows = (
      urns.length > 1
        ? this.batch.all(JSON.stringify(urns))
        : aspects?.length === 1
          ? this.oneAspect.all(urns[0], aspects[0])
          : this.one.all(urns[0])
    ) as Row[]
    for (const r of rows) {
      if (wanted && !wanted.has(r[1])) continue
      out.get(r[0])?.push({
        aspect: r[1],
        version: r[2],
        valueJson: r[3],
        created: { time: r[5], actor: r[6] },
        systemMetadataJson: r[4],
      })
    }
    return out
  }
}
