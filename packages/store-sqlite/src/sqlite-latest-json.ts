import type { StoredAspectJson } from '@catalog/store'
import type Database from 'better-sqlite3'
import { type SystemMetadataCodec, systemMetadataCodec } from './sqlite-system-metadata.js'

/** A row of one URN: aspect, metadata, createdon, createdby, observed, run, lastrun, sysextra. */
type OneRow = [string, string, number, number, number | null, number | null, number | null, string | null]
/** A row of a batch: the URN, then the same. */
type BatchRow = [string, ...OneRow]

const COLUMNS = 'a.aspect, a.metadata, a.createdon, a.createdby, a.observed, a.run, a.lastrun, a.sysextra'
const JOINED = 'urns u CROSS JOIN aspect_rows a ON a.eid = u.id'

/**
 * The latest aspect rows of entities with their values as the stored JSON text (see
 * `AspectStore.latestJson`): one statement for one URN (or one aspect of it) or for a whole
 * batch, rows as arrays, in (urn, aspect) order as `latest` reads them. Only version 0 is read,
 * so the version is not; a read of one URN does not read the URN back either (a cold read of an
 * entity of 7 aspects makes 14 strings fewer).
 */
export class SqliteLatestJson {
  private readonly one: Database.Statement
  private readonly oneAspect: Database.Statement
  private readonly batch: Database.Statement
  private readonly codec: SystemMetadataCodec

  constructor(db: Database.Database) {
    this.codec = systemMetadataCodec(db)
    this.one = db
      .prepare(`SELECT ${COLUMNS} FROM ${JOINED} WHERE u.urn = ? AND a.version = 0 ORDER BY a.aspect`)
      .raw()
    this.oneAspect = db
      .prepare(`SELECT ${COLUMNS} FROM ${JOINED} WHERE u.urn = ? AND a.aspect = ? AND a.version = 0`)
      .raw()
    this.batch = db
      .prepare(
        `SELECT u.urn, ${COLUMNS} FROM ${JOINED}
         WHERE u.urn IN (SELECT value FROM json_each(?)) AND a.version = 0 ORDER BY u.urn, a.aspect`,
      )
      .raw()
  }

  read(urns: readonly string[], aspects?: readonly string[]): Map<string, StoredAspectJson[]> {
    const out = new Map<string, StoredAspectJson[]>()
    const wanted = aspects && aspects.length > 0 ? new Set(aspects) : undefined
    if (urns.length === 1) {
      const urn = urns[0] as string
      const rows = (
        aspects?.length === 1 ? this.oneAspect.all(urn, aspects[0]) : this.one.all(urn)
      ) as OneRow[]
      const list: StoredAspectJson[] = []
      for (const r of rows) if (!wanted || wanted.has(r[0])) list.push(this.stored(r, 0))
      out.set(urn, list)
      return out
    }
    for (const urn of urns) out.set(urn, [])
    if (urns.length === 0) return out
    for (const r of this.batch.all(JSON.stringify(urns)) as BatchRow[]) {
      if (wanted && !wanted.has(r[1])) continue
      out.get(r[0])?.push(this.stored(r, 1))
    }
    return out
  }

  /** The row's columns from index `o` on (1 in a batch's rows, after the URN). */
  private stored(row: OneRow | BatchRow, o: 0 | 1): StoredAspectJson {
    const r = row as unknown[]
    const codec = this.codec
    return {
      aspect: r[o] as string,
      version: 0,
      valueJson: r[o + 1] as string,
      created: { time: r[o + 2] as number, actor: codec.actors.name(r[o + 3] as number) },
      systemMetadataJson: codec.json(
        r[o + 4] as number | null,
        r[o + 5] as number | null,
        r[o + 6] as number | null,
        r[o + 7] as string | null,
      ),
    }
  }
}
