import { closeSync, fsyncSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  type AuditStamp,
  canonicalJson,
  type SystemMetadata,
  UnavailableError,
  ValidationError,
} from '@catalog/core'
import type { Mutation, UpsertAspect, WriteBatch, WriteOutcome } from '@catalog/store'
import { patchToUpsert, timeseriesKey } from '@catalog/store'
import Database from 'better-sqlite3'
import { STORE_DDL } from './schema.js'
import { BULK_DDL, type BulkProgress, bulkStatements } from './sqlite-bulk-import-ddl.js'
import { openStoreSchema } from './sqlite-schema.js'
import { type SystemMetadataCodec, systemMetadataCodec } from './sqlite-system-metadata.js'
import { UrnIds } from './sqlite-urn-ids.js'
import { prepareWrites } from './sqlite-write-statements.js'
import { deleteLegacy } from './sqlite-writer.js'

export type { BulkProgress } from './sqlite-bulk-import-ddl.js'

/** A stored aspect row as DataHub's `metadata_aspect_v2` holds it (history rows: version > 0). */
export interface BulkAspectRow {
  readonly urn: string
  readonly aspect: string
  readonly version: number
  /** The validated value; stored as canonical JSON. */
  readonly value: Record<string, unknown>
  readonly systemMetadata?: SystemMetadata
  readonly created: AuditStamp
}

/** A latest aspect row of an entity to re-index (see {@link SqliteBulkImport.touchedLatest}). */
export type TouchedLatestRow = readonly [
  urn: string,
  entityType: string,
  aspect: string | null,
  valueJson: string | null,
]

/**
 * Loads aspects straight into the embedded store's file, offline, for `catalog import`. Writes
 * follow the live store's semantics (version 0 is the latest, a changed value moves the previous
 * one to max+1, an unchanged value only refreshes its system metadata, default aspects for new
 * entities, edges replaced per aspect) but in large transactions with `synchronous = OFF` and no
 * change-log rows: the search index is rebuilt afterwards from the entities recorded in
 * `bulk_import_touched`. Each commit also stores the caller's progress (`bulk_import_progress`),
 * so a killed import resumes after its last commit. `finish` checkpoints the WAL and fsyncs.
 */
export class SqliteBulkImport {
  private readonly db: Database.Database
  private readonly s: ReturnType<typeof bulkStatements>
  /** The live writer's statements on the same tables. */
  private readonly w: ReturnType<typeof prepareWrites>
  private readonly ids: UrnIds
  private readonly codec: SystemMetadataCodec
  private inTransaction = false
  /** Aspect rows written so far (new or changed latest values, archived versions, history rows). */
  rowsWritten = 0

  constructor(private readonly file: string) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    try {
      closeSync(openSync(file, 'a', 0o600))
      this.db = new Database(file)
      this.db.pragma('journal_mode = WAL')
      // A process crash (kill -9) cannot lose committed WAL frames with OFF; only an OS crash
      // can, and `finish` syncs everything before the import reports success.
      this.db.pragma('synchronous = OFF')
      this.db.pragma('busy_timeout = 5000')
      this.db.pragma('cache_size = -131072')
      this.db.pragma('wal_autocheckpoint = 20000')
      openStoreSchema(this.db)
      this.db.exec(BULK_DDL)
    } catch (err) {
      throw new UnavailableError(`cannot open the metadata store at ${file}: ${(err as Error).message}`, {
        cause: err,
      })
    }
    this.s = bulkStatements(this.db)
    this.w = prepareWrites(this.db)
    this.ids = new UrnIds(this.db)
    this.codec = systemMetadataCodec(this.db)
  }

  /**
   * Drops the store's secondary indexes (those STORE_DDL creates with CREATE INDEX) for a large
   * load into a small store; one sorted build at the end is cheaper than maintaining them row by
   * row. Any later open of the store (the search rebuild, `finish`, the catalog) recreates them,
   * so a killed import leaves nothing missing.
   */
  deferIndexes(): string[] {
    const names = [...STORE_DDL.matchAll(/CREATE INDEX IF NOT EXISTS (\w+)/g)].map((m) => m[1] as string)
    for (const name of names) this.db.exec(`DROP INDEX IF EXISTS ${name}`)
    return names
  }

  /** Aspect rows in the store (to decide on {@link deferIndexes}). */
  aspectRows(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM aspect_rows').get() as { n: number }).n
  }

  /** The saved progress of an input (by its key), if an import of it began. */
  progress(source: string): BulkProgress | undefined {
    return this.s.progressOf.get(source) as BulkProgress | undefined
  }

  /**
   * Runs `work` in one transaction and saves the `progress` it reports after it in the same
   * transaction: either both land or neither.
   * Writes through {@link write} and {@link putVersion} are only allowed inside.
   */
  commit(work: () => void, progress: () => BulkProgress): void {
    try {
      this.db.transaction(() => {
        this.inTransaction = true
        try {
          work()
          this.s.saveProgress.run(progress())
        } finally {
          this.inTransaction = false
        }
      })()
    } catch (err) {
      // Run ids and actors given in the rolled-back transaction may be given again.
      this.codec.forget()
      throw err
    }
  }

  /**
   * Applies one record's batch as the live store would (without the change log). A batch that
   * fails (a refused precondition, a patch that breaks the schema) leaves nothing behind: such
   * batches run in a savepoint; plain upserts, which cannot fail, do not pay for one.
   */
  write(batch: WriteBatch): WriteOutcome {
    if (!this.inTransaction) throw new Error('SqliteBulkImport.write outside commit()')
    const risky = batch.mutations.some(
      (m) => m.kind === 'patch' || m.kind === 'rollback' || (m.kind === 'upsert' && m.precondition),
    )
    if (!risky) return this.apply(batch)
    const before = this.rowsWritten
    try {
      return this.db.transaction(() => this.apply(batch))()
    } catch (err) {
      this.rowsWritten = before
      this.codec.forget()
      throw err
    }
  }

  /** Stores a history row (version > 0) as given; rerunning it replaces it with itself. */
  putVersion(row: BulkAspectRow): void {
    if (!this.inTransaction) throw new Error('SqliteBulkImport.putVersion outside commit()')
    this.rowsWritten++
    const c = this.codec.encode(row.systemMetadata)
    this.s.putRow.run(
      this.ids.ensure(row.urn),
      row.aspect,
      row.version,
      canonicalJson(row.value),
      row.created.time,
      this.codec.actors.id(row.created.actor),
      c.observed,
      c.run,
      c.lastrun,
      c.sysextra,
    )
  }

  /** Up to `limit` entities the import wrote whose search documents are not rebuilt yet, in URN order. */
  touched(limit: number): Array<{ urn: string; entityType: string; existed: boolean }> {
    return (
      this.s.touchedPage.all(limit) as Array<{ urn: string; entity_type: string; existed: number }>
    ).map((r) => ({ urn: r.urn, entityType: r.entity_type, existed: r.existed === 1 }))
  }

  /**
   * The next `limit` entities after `after` (a URN; '' for the first) whose search documents are
   * not rebuilt yet, with their latest aspects as stored JSON text: rows of
   * `[urn, entityType, aspect, valueJson]` in URN order, an entity's rows together (an entity with
   * no aspect left has one row of nulls). One statement per page, no per-row objects.
   */
  touchedLatest(after: string, limit: number): TouchedLatestRow[] {
    return this.s.touchedLatest.all(after, limit) as TouchedLatestRow[]
  }

  /** Marks entities as re-indexed. */
  untouch(urns: readonly string[]): void {
    this.db.transaction(() => {
      for (const urn of urns) this.s.untouch.run(urn)
    })()
  }

  /** Entities still waiting for their search documents. */
  touchedCount(): number {
    return (this.s.touchedCount.get() as { n: number }).n
  }

  /** The change log's newest sequence number (imports add none). */
  head(): number {
    return Number((this.w.head.get() as { seq: number | null }).seq ?? 0)
  }

  /** Checkpoints the WAL into the database file, fsyncs file and directory, closes. */
  finish(): void {
    this.db.exec(STORE_DDL)
    this.db.pragma('wal_checkpoint(TRUNCATE)')
    this.db.close()
    for (const path of [this.file, dirname(this.file)]) {
      const fd = openSync(path, 'r')
      try {
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
    }
  }

  /** Closes without the final checkpoint (after a failure). */
  close(): void {
    if (this.db.open) this.db.close()
  }

  private apply(batch: WriteBatch): WriteOutcome {
    const { s, w } = this
    const defaults = new Map((batch.defaults ?? []).map((d) => [d.urn, d]))
    const written = new Set(
      batch.mutations
        .filter((m) => m.kind === 'upsert' || m.kind === 'patch')
        .map((m) => `${m.urn}\0${m.aspect}`),
    )
    const results: WriteOutcome['results'][number][] = []
    /** Entities this batch creates (CREATE_ENTITY is allowed for them only). */
    const created = new Set<string>()
    /** Aspects of those written already: the others have no row yet and skip the lookup. */
    const seen = new Set<string>()
    const upsert = (m: UpsertAspect) => {
      const id = `${m.urn}\0${m.aspect}`
      const isNew = created.has(m.urn)
      const fresh = isNew && !seen.has(id)
      seen.add(id)
      return this.upsert(m, isNew, fresh)
    }
    for (const m of batch.mutations) {
      const d = defaults.get(urnOf(m))
      if (d && (m.kind === 'upsert' || m.kind === 'patch')) {
        defaults.delete(d.urn)
        const existed = s.exists.get(d.urn, d.keyAspect) !== undefined
        s.touch.run(d.urn, d.entityType, existed ? 1 : 0)
        if (!existed) {
          created.add(d.urn)
          for (const a of d.aspects) {
            if (written.has(`${d.urn}\0${a.aspect}`)) continue
            upsert({
              kind: 'upsert',
              urn: d.urn,
              entityType: d.entityType,
              aspect: a.aspect,
              value: a.value,
              created: batch.created,
              edges: a.edges,
              ...(m.systemMetadata ? { systemMetadata: m.systemMetadata } : {}),
            })
          }
        }
      }
      switch (m.kind) {
        case 'upsert':
          results.push({ urn: m.urn, aspect: m.aspect, changed: upsert(m) })
          break
        case 'patch': {
          const id = this.ids.of(m.urn)
          const row =
            id === undefined ? undefined : (w.latestOne.get(id, m.aspect) as { metadata: string } | undefined)
          const current = row ? (JSON.parse(row.metadata) as Record<string, unknown>) : undefined
          const value = patchToUpsert(m, current)
          results.push({ urn: m.urn, aspect: m.aspect, changed: upsert(value) })
          break
        }
        case 'delete': {
          if (m.isKeyAspect) created.delete(m.urn)
          seen.add(`${m.urn}\0${m.aspect}`)
          s.touch.run(m.urn, m.entityType, 1)
          const rows = m.isKeyAspect ? this.deleteEntity(m.urn) : this.deleteAspect(m.urn, m.aspect)
          results.push({ urn: m.urn, aspect: m.aspect, changed: rows > 0, rows })
          break
        }
        case 'rollback':
          throw new ValidationError('a rollback cannot be imported')
        case 'timeseries': {
          const r = m.row
          const { partition, messageId, legacyPartition } = timeseriesKey(r.value)
          if (legacyPartition !== undefined) deleteLegacy(w, r, legacyPartition, messageId)
          w.upsertTimeseries.run(
            r.entityType,
            r.aspect,
            r.urn,
            r.timestampMillis,
            partition,
            messageId,
            JSON.stringify(r.value),
            r.systemMetadata ? JSON.stringify(r.systemMetadata) : null,
          )
          results.push({ urn: r.urn, aspect: r.aspect, changed: true })
          break
        }
      }
    }
    return { results, seq: 0 }
  }

  /** Version 0 gets the value; a different previous value moves to max+1. False for a no-op. */
  private upsert(m: UpsertAspect, isNewEntity: boolean, fresh: boolean): boolean {
    const { w } = this
    const json = canonicalJson(m.value)
    const known = fresh ? undefined : this.ids.of(m.urn)
    const current =
      known === undefined
        ? undefined
        : (w.latestOne.get(known, m.aspect) as { metadata: string; run: number | null } | undefined)
    if (current && m.precondition?.require === 'aspect-absent') {
      if (m.precondition.drop) return false
      throw new ValidationError(
        `Cannot perform CREATE since the aspect already exists. (${m.urn}, ${m.aspect})`,
      )
    }
    if (m.precondition?.require === 'entity-absent' && !isNewEntity) {
      if (m.precondition.drop) return false
      throw new ValidationError(
        `Cannot perform CREATE_ENTITY if not exists since the entity key already exists. (${m.urn}, ${m.aspect})`,
      )
    }
    const c = this.codec.written(m.systemMetadata, m.created, current ? (current.run ?? null) : null).columns
    if (current && current.metadata === json) {
      w.touch.run(c.observed, c.run, c.lastrun, c.sysextra, known, m.aspect)
      return false
    }
    const id = known ?? this.ids.ensure(m.urn)
    const actor = this.codec.actors.id(m.created.actor)
    if (current) {
      const max = (w.maxVersion.get(id, m.aspect) as { v: number }).v
      w.archive.run(max + 1, id, m.aspect)
      w.updateLatest.run(json, m.created.time, actor, c.observed, c.run, c.lastrun, c.sysextra, id, m.aspect)
      w.deleteEdgesOf.run(id, m.aspect)
    } else
      w.insert.run(id, m.aspect, 0, json, m.created.time, actor, c.observed, c.run, c.lastrun, c.sysextra)
    for (const e of m.edges) w.insertEdge.run(id, e.type, this.ids.ensure(e.destination), m.aspect)
    this.rowsWritten++
    return true
  }

  private deleteAspect(urn: string, aspect: string): number {
    const id = this.ids.of(urn)
    if (id === undefined) return 0
    this.w.deleteEdgesOf.run(id, aspect)
    return this.w.deleteAspect.run(id, aspect).changes
  }

  private deleteEntity(urn: string): number {
    const { w } = this
    w.deleteEntityTimeseries.run(urn)
    const id = this.ids.of(urn)
    if (id === undefined) return 0
    w.deleteOutgoing.run(id)
    w.deleteIncoming.run(id)
    return w.deleteEntity.run(id).changes
  }
}

function urnOf(m: Mutation): string {
  return m.kind === 'timeseries' ? m.row.urn : m.urn
}
