import { type AuditStamp, NO_RUN_ID, type SystemMetadata } from '@catalog/core'
import type Database from 'better-sqlite3'

/**
 * An aspect row's system metadata as `aspect_rows` keeps it (see `STORE_DDL`): `lastObserved` as
 * an integer, `runId` and `lastRunId` as ids into `run_ids`, the other keys as JSON (NULL when
 * there are none). A row without system metadata has all four NULL; a value that is not a JSON
 * object, or an object none of whose three keys fits its column, is kept whole in `sysextra`.
 */
export interface SystemColumns {
  readonly observed: number | null
  readonly run: number | null
  readonly lastrun: number | null
  readonly sysextra: string | null
}

/** The system metadata a write stores: its columns, and its JSON for the change log. */
export interface WrittenSystemMetadata {
  readonly columns: SystemColumns
  readonly json: string
}

const NONE: SystemColumns = { observed: null, run: null, lastrun: null, sysextra: null }

/**
 * A dictionary table (`run_ids`, `actors`): text stored once, rows refer to it by integer id.
 * Ids are never reused, so both directions are cached; `forget` drops the cache after a rolled
 * back transaction, whose new ids may be given again to other text.
 */
export class SqliteDictionary {
  private readonly ids = new Map<string, number>()
  private readonly names = new Map<number, string>()
  /** `"<key>":<name as JSON>` by id, for {@link SystemMetadataCodec.json}. */
  private readonly fragments = new Map<string, string>()
  private readonly find: Database.Statement
  private readonly add: Database.Statement
  private readonly nameOf: Database.Statement

  constructor(db: Database.Database, table: 'run_ids' | 'actors', column: 'run' | 'actor') {
    this.find = db.prepare(`SELECT id FROM ${table} WHERE ${column} = ?`).pluck()
    this.add = db.prepare(`INSERT INTO ${table} (${column}) VALUES (?)`)
    this.nameOf = db.prepare(`SELECT ${column} FROM ${table} WHERE id = ?`).pluck()
  }

  /** The id of `name`, given now if it had none (inside the caller's write transaction). */
  id(name: string): number {
    const hit = this.ids.get(name)
    if (hit !== undefined) return hit
    const found = this.find.get(name) as number | undefined
    const id = found ?? Number(this.add.run(name).lastInsertRowid)
    this.ids.set(name, id)
    this.names.set(id, name)
    return id
  }

  /** The text of `id`. */
  name(id: number): string {
    const hit = this.names.get(id)
    if (hit !== undefined) return hit
    const name = this.nameOf.get(id) as string | undefined
    if (name === undefined) throw new Error(`the store has no dictionary entry ${id}`)
    this.names.set(id, name)
    return name
  }

  /** `"<key>":<the text of id as a JSON string>`. */
  fragment(key: string, id: number): string {
    const k = `${key}\u0000${id}`
    let hit = this.fragments.get(k)
    if (hit === undefined) {
      hit = `"${key}":${JSON.stringify(this.name(id))}`
      this.fragments.set(k, hit)
    }
    return hit
  }

  forget(): void {
    this.ids.clear()
    this.names.clear()
    this.fragments.clear()
  }
}

/** Encodes and decodes the system metadata and actor columns of one connection's aspect rows. */
export class SystemMetadataCodec {
  readonly runs: SqliteDictionary
  readonly actors: SqliteDictionary
  /** The last {@link json} answer, by its columns: an entity's rows often share their system metadata. */
  private lastJson: { o: number | null; r: number | null; l: number | null; x: string | null; json: string } =
    {
      o: null,
      r: null,
      l: null,
      x: null,
      json: '',
    }
  /** The last {@link written} answer, by the objects it came from (a new entity's rows share them). */
  private last:
    | {
        given: SystemMetadata | undefined
        created: AuditStamp
        previousRun: number | null
        written: WrittenSystemMetadata
      }
    | undefined

  constructor(db: Database.Database) {
    this.runs = new SqliteDictionary(db, 'run_ids', 'run')
    this.actors = new SqliteDictionary(db, 'actors', 'actor')
  }

  /** The columns of `sm` (none for no system metadata); gives run ids as needed. */
  encode(sm: SystemMetadata | null | undefined): SystemColumns {
    if (sm === null || sm === undefined) return NONE
    const { lastObserved, runId, lastRunId, ...rest } = sm
    const observed = Number.isSafeInteger(lastObserved) ? (lastObserved as number) : null
    const run = typeof runId === 'string' ? this.runs.id(runId) : null
    const lastrun = typeof lastRunId === 'string' ? this.runs.id(lastRunId) : null
    if (observed === null && run === null && lastrun === null)
      return { ...NONE, sysextra: JSON.stringify(sm) }
    // A key that did not fit its column stays with the others.
    const extra: Record<string, unknown> = {}
    if (observed === null && lastObserved !== undefined) extra.lastObserved = lastObserved
    if (run === null && runId !== undefined) extra.runId = runId
    if (lastrun === null && lastRunId !== undefined) extra.lastRunId = lastRunId
    Object.assign(extra, rest)
    const sysextra = Object.keys(extra).length > 0 ? JSON.stringify(extra) : null
    return { observed, run, lastrun, sysextra }
  }

  /**
   * What a write stores as DataHub does: the given system metadata with `lastObserved` (the
   * write's time), `runId` (`no-run-id-provided`) and `lastRunId` (the previous row's run, by id:
   * null without one) filled in where not given.
   */
  written(
    given: SystemMetadata | undefined,
    created: AuditStamp,
    previousRun: number | null,
  ): WrittenSystemMetadata {
    const last = this.last
    if (last && last.given === given && last.created === created && last.previousRun === previousRun) {
      return last.written
    }
    const columns = this.encode({
      ...given,
      lastObserved: given?.lastObserved ?? created.time,
      runId: given?.runId ?? NO_RUN_ID,
      lastRunId: given?.lastRunId ?? (previousRun === null ? NO_RUN_ID : this.runs.name(previousRun)),
    })
    const written = {
      columns,
      json: this.json(columns.observed, columns.run, columns.lastrun, columns.sysextra) as string,
    }
    this.last = { given, created, previousRun, written }
    return written
  }

  /** The columns of stored system metadata text (kept whole when it is not a JSON object). */
  encodeText(text: string | null): SystemColumns {
    if (text === null) return NONE
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return { ...NONE, sysextra: text }
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { ...NONE, sysextra: text }
    return this.encode(value as SystemMetadata)
  }

  /**
   * The system metadata JSON of a row's columns: `lastObserved`, `runId`, `lastRunId` first (the
   * order of DataHub's `SystemMetadata` record), then the other keys; null for none.
   */
  json(
    observed: number | null,
    run: number | null,
    lastrun: number | null,
    extra: string | null,
  ): string | null {
    if (observed === null && run === null && lastrun === null) return extra
    const last = this.lastJson
    if (last.o === observed && last.r === run && last.l === lastrun && last.x === extra && last.json !== '') {
      return last.json
    }
    let s = observed === null ? '' : `"lastObserved":${observed}`
    if (run !== null) s += `${s === '' ? '' : ','}${this.runs.fragment('runId', run)}`
    if (lastrun !== null) s += `${s === '' ? '' : ','}${this.runs.fragment('lastRunId', lastrun)}`
    if (extra !== null && extra.length > 2) s += `${s === '' ? '' : ','}${extra.slice(1, -1)}`
    const json = `{${s}}`
    this.lastJson = { o: observed, r: run, l: lastrun, x: extra, json }
    return json
  }

  /** Drops the dictionaries' caches (after a rolled-back transaction). */
  forget(): void {
    this.runs.forget()
    this.actors.forget()
    this.last = undefined
    this.lastJson = { o: null, r: null, l: null, x: null, json: '' }
  }
}

const codecs = new WeakMap<Database.Database, SystemMetadataCodec>()

/** The codec of a connection: one per connection, so a rollback on it forgets for all its users. */
export function systemMetadataCodec(db: Database.Database): SystemMetadataCodec {
  let codec = codecs.get(db)
  if (!codec) {
    codec = new SystemMetadataCodec(db)
    codecs.set(db, codec)
  }
  return codec
}
