import { type AuditStamp, canonicalJson, type TimeseriesRow, ValidationError } from '@catalog/core'
import type {
  CreatePrecondition,
  DeleteAspect,
  EdgeTarget,
  Mutation,
  MutationResult,
  PatchAspect,
  RollbackAspect,
  UpsertAspect,
  WriteBatch,
  WriteOutcome,
} from '@catalog/store'
import { isLatestUnchanged, LatestChangedError, patchToUpsert, timeseriesKey } from '@catalog/store'
import type Database from 'better-sqlite3'
import { BatchUrnIds } from './sqlite-batch-urn-ids.js'
import { MultiRowInsert } from './sqlite-multi-row-insert.js'
import {
  type SystemColumns,
  type SystemMetadataCodec,
  systemMetadataCodec,
} from './sqlite-system-metadata.js'
import { ASPECT_COLUMNS, type LatestRow, LOG_COLUMNS, prepareWrites } from './sqlite-write-statements.js'

/** One call waiting for a group commit, with what it did once applied. */
export interface PendingWrite {
  readonly batch: WriteBatch
  outcome?: WriteOutcome
  error?: unknown
}

/**
 * Applies write batches to one connection: DataHub's versioned aspect rows, the edges and the
 * change log. Runs wherever the writing connection lives: on the event loop, or in the writer
 * thread for large writes ({@link SqliteWriteThread}).
 */
export class SqliteWriter {
  private readonly s: ReturnType<typeof prepareWrites>
  /** URN ids, remembered while a batch is applied. */
  private readonly ids: BatchUrnIds
  /**
   * The change-log rows of the batch being applied, written at its end: nothing reads the log
   * meanwhile (see {@link MultiRowInsert}).
   */
  private readonly changeLog: MultiRowInsert
  /**
   * The aspect rows of entities new in the batch being applied ("fresh": known not to exist yet),
   * written before any statement reads or changes `aspect_rows` ({@link readyRows}), and at its end.
   */
  private readonly freshRows: MultiRowInsert
  /** System metadata and actors as `aspect_rows` stores them (run ids and actors by id). */
  private readonly codec: SystemMetadataCodec
  /** One call in its own transaction (or savepoint, inside another). */
  readonly applyOne: (batch: WriteBatch) => WriteOutcome
  /**
   * Calls in one transaction, no savepoints (they cost more than the writes themselves). Any
   * failure rolls the group back and each call is retried in its own savepoint, so one bad call
   * never affects another. Each item gets its `outcome` or `error`; throws only when the commit fails.
   */
  readonly applyGroup: (items: PendingWrite[]) => void

  constructor(db: Database.Database) {
    this.s = prepareWrites(db)
    this.ids = new BatchUrnIds(db)
    this.changeLog = new MultiRowInsert(db, 'change_log', LOG_COLUMNS)
    this.freshRows = new MultiRowInsert(db, 'aspect_rows', ASPECT_COLUMNS)
    this.codec = systemMetadataCodec(db)
    // A rolled-back transaction may have given dictionary ids that will be given again.
    const forgetting =
      <A extends unknown[], R>(fn: (...args: A) => R) =>
      (...args: A): R => {
        try {
          return fn(...args)
        } catch (err) {
          this.codec.forget()
          throw err
        }
      }
    this.applyOne = forgetting(db.transaction((batch: WriteBatch) => this.apply(batch)))
    const fast = forgetting(
      db.transaction((items: PendingWrite[]) => {
        for (const item of items) item.outcome = this.apply(item.batch)
      }),
    )
    const isolated = forgetting(
      db.transaction((items: PendingWrite[]) => {
        for (const item of items) {
          try {
            item.outcome = this.applyOne(item.batch)
          } catch (err) {
            item.error = err
          }
        }
      }),
    )
    this.applyGroup = (items) => {
      try {
        fast(items)
      } catch {
        for (const item of items) {
          delete item.outcome
          delete item.error
        }
        isolated(items)
      }
    }
  }

  /** Replaces the edges an aspect produces. */
  replaceEdges(urn: string, aspect: string, edges: readonly EdgeTarget[]): void {
    const id = this.ids.ensure(urn)
    this.s.deleteEdgesOf.run(id, aspect)
    this.insertEdges(id, aspect, edges)
  }

  private insertEdges(id: number, aspect: string, edges: readonly EdgeTarget[]): void {
    for (const e of edges) this.s.insertEdge.run(id, e.type, this.ids.ensure(e.destination), aspect)
  }

  private apply(batch: WriteBatch): WriteOutcome {
    this.ids.begin()
    try {
      const results = this.applyBatch(batch)
      this.freshRows.flush()
      // The last entry appended is the log's head: no query for it.
      const logged = this.changeLog.flush()
      return { results, seq: logged ?? Number((this.s.head.get() as { seq: number | null }).seq ?? 0) }
    } catch (err) {
      this.freshRows.discard()
      this.changeLog.discard()
      throw err
    } finally {
      this.ids.end()
    }
  }

  private applyBatch(batch: WriteBatch): MutationResult[] {
    const s = this.s
    const results: MutationResult[] = []
    const defaults = new Map((batch.defaults ?? []).map((d) => [d.urn, d]))
    const written = new Set(
      batch.mutations
        .filter((m) => m.kind === 'upsert' || m.kind === 'patch')
        .map((m) => `${m.urn}\u0000${m.aspect}`),
    )
    // Entities this batch creates have no rows yet: their first writes skip the lookups.
    const newEntities = new Set<string>()
    const touched = new Set<string>()
    const upsert = (m: UpsertAspect): boolean => {
      const id = `${m.urn}\u0000${m.aspect}`
      const fresh = newEntities.has(m.urn) && !touched.has(id)
      touched.add(id)
      if (m.precondition?.require === 'entity-absent' && !newEntities.has(m.urn)) {
        return refuse(m, 'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.')
      }
      return this.upsert(m, fresh)
    }
    for (const mutation of batch.mutations) {
      const d = defaults.get(mutationUrn(mutation))
      if (d && (mutation.kind === 'upsert' || mutation.kind === 'patch')) {
        defaults.delete(d.urn)
        const entity = this.ids.of(d.urn)
        if (entity !== undefined) this.readyRows()
        if (entity === undefined || !s.exists.get(entity, d.keyAspect)) {
          newEntities.add(d.urn)
          for (const a of d.aspects) {
            if (written.has(`${d.urn}\u0000${a.aspect}`)) continue
            upsert({
              kind: 'upsert',
              urn: d.urn,
              entityType: d.entityType,
              aspect: a.aspect,
              value: a.value,
              created: batch.created,
              edges: a.edges,
              // As DataHub: default aspects carry the system metadata (run id) of the write that created them.
              ...(mutation.systemMetadata ? { systemMetadata: mutation.systemMetadata } : {}),
            })
          }
        }
      }
      switch (mutation.kind) {
        case 'upsert':
          results.push({ urn: mutation.urn, aspect: mutation.aspect, changed: upsert(mutation) })
          break
        case 'patch':
          results.push({
            urn: mutation.urn,
            aspect: mutation.aspect,
            changed: upsert(this.patched(mutation)),
          })
          break
        case 'delete':
          touched.add(`${mutation.urn}\u0000${mutation.aspect}`)
          if (mutation.isKeyAspect) newEntities.delete(mutation.urn)
          results.push(this.delete(mutation))
          break
        case 'rollback':
          if (mutation.isKeyAspect) newEntities.delete(mutation.urn)
          results.push(this.rollback(mutation))
          break
        case 'timeseries':
          this.appendTimeseries(mutation.row)
          results.push({ urn: mutation.row.urn, aspect: mutation.row.aspect, changed: true })
          break
      }
    }
    return results
  }

  /** The upsert a patch amounts to, computed from the latest stored value. */
  private patched(m: PatchAspect): UpsertAspect {
    this.readyRows()
    const id = this.ids.of(m.urn)
    const row = id === undefined ? undefined : (this.s.latestOne.get(id, m.aspect) as LatestRow | undefined)
    const current = row ? (JSON.parse(row.metadata) as Record<string, unknown>) : undefined
    return patchToUpsert(m, current)
  }

  /**
   * Writes version 0, moving a different previous value to max+1. Returns false for a no-op.
   * `fresh` means the row is known not to exist (a new entity's first write of the aspect).
   */
  private upsert(m: UpsertAspect, fresh = false): boolean {
    const s = this.s
    if (!fresh) this.readyRows()
    const json = m.valueJson ?? canonicalJson(m.value)
    const known = fresh ? undefined : this.ids.of(m.urn)
    const current =
      known === undefined ? undefined : (s.latestOne.get(known, m.aspect) as LatestRow | undefined)
    const pre = m.precondition
    if (pre?.require === 'latest-unchanged' && !isLatestUnchanged(pre, current?.metadata)) {
      throw new LatestChangedError(m.urn, m.aspect)
    }
    if (current && pre?.require === 'aspect-absent') {
      return refuse(m, 'Cannot perform CREATE since the aspect already exists.')
    }
    const sm = this.codec.written(m.systemMetadata, m.created, current ? (current.run ?? null) : null)
    const c = sm.columns
    if (current && current.metadata === json) {
      s.touch.run(c.observed, c.run, c.lastrun, c.sysextra, known, m.aspect)
      return false
    }
    const smJson = sm.json
    const id = known ?? this.ids.ensure(m.urn)
    const actor = this.codec.actors.id(m.created.actor)
    if (current) {
      const max = (s.maxVersion.get(id, m.aspect) as { v: number }).v
      s.archive.run(max + 1, id, m.aspect)
      s.updateLatest.run(json, m.created.time, actor, c.observed, c.run, c.lastrun, c.sysextra, id, m.aspect)
    } else if (fresh) {
      this.freshRows.params.push(
        id,
        m.aspect,
        0,
        json,
        m.created.time,
        actor,
        c.observed,
        c.run,
        c.lastrun,
        c.sysextra,
      )
      this.freshRows.added()
    } else {
      s.insert.run(id, m.aspect, 0, json, m.created.time, actor, c.observed, c.run, c.lastrun, c.sysextra)
    }
    if (!fresh) s.deleteEdgesOf.run(id, m.aspect)
    this.insertEdges(id, m.aspect, m.edges)
    this.appendLog(m.urn, m.entityType, m.aspect, 'UPSERT', json, 0, m.created, smJson)
    return true
  }

  private appendLog(
    urn: string,
    entityType: string,
    aspect: string,
    change: 'UPSERT' | 'DELETE',
    json: string | null,
    deleted: number,
    created: AuditStamp,
    smJson: string | null,
  ): void {
    this.changeLog.params.push(
      urn,
      entityType,
      aspect,
      change,
      json,
      deleted,
      created.time,
      created.actor,
      smJson,
    )
    this.changeLog.added()
  }

  /** Writes the fresh aspect rows queued, before a statement that reads or changes `aspect_rows`. */
  private readyRows(): void {
    if (this.freshRows.pending) this.freshRows.flush()
  }

  private delete(m: DeleteAspect): MutationResult {
    const s = this.s
    this.readyRows()
    let rows = 0
    const id = this.ids.of(m.urn)
    if (m.isKeyAspect) {
      if (id !== undefined) {
        rows = s.deleteEntity.run(id).changes
        s.deleteOutgoing.run(id)
        s.deleteIncoming.run(id)
      }
      s.deleteEntityTimeseries.run(m.urn)
    } else if (id !== undefined) {
      rows = s.deleteAspect.run(id, m.aspect).changes
      s.deleteEdgesOf.run(id, m.aspect)
    }
    if (rows > 0) {
      const deleted = m.isKeyAspect ? 1 : 0
      this.appendLog(m.urn, m.entityType, m.aspect, 'DELETE', null, deleted, m.created, null)
    }
    return { urn: m.urn, aspect: m.aspect, changed: rows > 0, rows }
  }

  /** Undoes the latest write of an aspect when `m.runId` made it (see {@link RollbackAspect}). */
  private rollback(m: RollbackAspect): MutationResult {
    const s = this.s
    this.readyRows()
    const id = this.ids.of(m.urn)
    const current = id === undefined ? undefined : (s.latestOne.get(id, m.aspect) as LatestRow | undefined)
    const runId = typeof current?.run === 'number' ? this.codec.runs.name(current.run) : undefined
    if (id === undefined || !current || runId !== m.runId)
      return { urn: m.urn, aspect: m.aspect, changed: false, rows: 0 }
    const max = (s.maxVersion.get(id, m.aspect) as { v: number }).v
    if (m.isKeyAspect || max === 0) return this.delete({ ...m, kind: 'delete' })
    s.deleteVersion.run(id, m.aspect, 0)
    s.promote.run(id, m.aspect, max)
    const restored = s.restored.get(id, m.aspect) as LatestRow & SystemColumns
    this.replaceEdges(m.urn, m.aspect, m.edgesOf(JSON.parse(restored.metadata) as Record<string, unknown>))
    this.appendLog(
      m.urn,
      m.entityType,
      m.aspect,
      'UPSERT',
      restored.metadata,
      0,
      m.created,
      this.codec.json(restored.observed, restored.run, restored.lastrun, restored.sysextra),
    )
    return { urn: m.urn, aspect: m.aspect, changed: true, rows: 1 }
  }

  private appendTimeseries(row: TimeseriesRow): void {
    const { partition, messageId, legacyPartition } = timeseriesKey(row.value)
    if (legacyPartition !== undefined) deleteLegacy(this.s, row, legacyPartition, messageId)
    this.s.upsertTimeseries.run(
      row.entityType,
      row.aspect,
      row.urn,
      row.timestampMillis,
      partition,
      messageId,
      JSON.stringify(row.value),
      row.systemMetadata ? JSON.stringify(row.systemMetadata) : null,
    )
  }

  /** Appends a change-log row (restate). */
  log(urn: string, entityType: string, aspect: string, json: string, created: AuditStamp): void {
    this.s.log.run(urn, entityType, aspect, 'UPSERT', json, 0, created.time, created.actor, null)
  }
}

/** The row a bucketed value had under the key layout without its granularity (its rewrite replaces it). */
export function deleteLegacy(
  s: Pick<ReturnType<typeof prepareWrites>, 'deleteLegacyTimeseries'>,
  row: TimeseriesRow,
  legacyPartition: string,
  messageId: string,
): void {
  const granularity = row.value.eventGranularity as { unit?: unknown; multiple?: unknown }
  s.deleteLegacyTimeseries.run(
    row.entityType,
    row.aspect,
    row.urn,
    row.timestampMillis,
    legacyPartition,
    messageId,
    String(granularity.unit),
    typeof granularity.multiple === 'number' ? granularity.multiple : 1,
  )
}

/** A write whose precondition failed: skipped when it asked to be dropped, refused otherwise. */
function refuse(m: UpsertAspect, message: string): false {
  if ((m.precondition as CreatePrecondition | undefined)?.drop) return false
  throw new ValidationError(`${message} (${m.urn}, ${m.aspect})`)
}

function mutationUrn(m: Mutation): string {
  return m.kind === 'timeseries' ? m.row.urn : m.urn
}
