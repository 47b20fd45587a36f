import {
  type AuditStamp,
  type ChangeKind,
  canonicalJson,
  type SystemMetadata,
  ValidationError,
} from '@catalog/core'
import type {
  CreatePrecondition,
  DeleteAspect,
  EdgeTarget,
  Mutation,
  MutationResult,
  PatchAspect,
  RestateItem,
  RollbackAspect,
  UpsertAspect,
  WriteBatch,
  WriteOutcome,
} from '@catalog/store'
import { isLatestUnchanged, LatestChangedError, patchToUpsert } from '@catalog/store'
import { DELETE_INCOMING_EDGES, PROMOTE_PREVIOUS } from './cypher-admin.js'
import {
  CHANGE_LOG_COUNTER,
  CURRENT_ASPECT,
  DELETE_ASPECT,
  DELETE_ENTITY_ROWS,
  DROP_EMPTY_ENTITY,
  EXISTS,
  LATEST_VALUES,
  LOCK_CHANGE_LOG,
  LOG_CHANGE,
  TOUCH_SYSTEM_METADATA,
  WRITE_LATEST,
} from './cypher-aspects.js'
import { DELETE_EDGES_OF, DELETE_OUTGOING_EDGES, mergeEdges } from './cypher-graph.js'
import { type AspectNode, entityTypeOf, int, systemMetadataWithDefaults } from './mapping.js'
import type { QueryRunner } from './statement.js'
import { appendTimeseries } from './timeseries.js'

interface LogEntry {
  readonly urn: string
  readonly entityType: string
  readonly aspect: string
  readonly change: ChangeKind
  readonly value: string | null
  readonly entityDeleted: boolean
  readonly created: AuditStamp
  readonly systemMetadata: string | null
}

/**
 * Applies writes inside one write transaction with DataHub's version semantics (the SQLite
 * adapter is the reference): version 0 is the latest; a changed value moves the previous one
 * to max+1; an identical value makes no version and only refreshes system metadata. It
 * starts by locking the change-log counter, so writers never interleave.
 */
export class AspectWriter {
  private constructor(
    private readonly tx: QueryRunner,
    private seq: number,
  ) {}

  /** Locks the change log for this transaction and returns a writer bound to it. */
  static async begin(tx: QueryRunner): Promise<AspectWriter> {
    const row = await tx.one(LOCK_CHANGE_LOG, { counter: CHANGE_LOG_COUNTER })
    return new AspectWriter(tx, Number(row.seq))
  }

  /** Applies one batch: defaults of new entities first, then the mutations in order. */
  async apply(batch: WriteBatch): Promise<WriteOutcome> {
    const results: MutationResult[] = []
    const defaults = new Map((batch.defaults ?? []).map((d) => [d.urn, d]))
    const written = new Set(
      batch.mutations
        .filter((m) => m.kind === 'upsert' || m.kind === 'patch')
        .map((m) => `${m.urn}\u0000${m.aspect}`),
    )
    // Entities that did not exist before this batch (CREATE_ENTITY is allowed on those only).
    const newEntities = new Set<string>()
    for (const mutation of batch.mutations) {
      const d = defaults.get(mutationUrn(mutation))
      if (d && (mutation.kind === 'upsert' || mutation.kind === 'patch')) {
        defaults.delete(d.urn)
        const present = await this.tx.one(EXISTS, { urn: d.urn, aspect: d.keyAspect })
        if (present.present !== true) {
          newEntities.add(d.urn)
          for (const a of d.aspects) {
            if (written.has(`${d.urn}\u0000${a.aspect}`)) continue
            await this.upsert({
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
        case 'patch': {
          const m = mutation.kind === 'patch' ? await this.patched(mutation) : mutation
          const changed =
            m.precondition?.require === 'entity-absent' && !newEntities.has(m.urn)
              ? refuse(m, 'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.')
              : await this.upsert(m)
          results.push({ urn: m.urn, aspect: m.aspect, changed })
          break
        }
        case 'delete':
          if (mutation.isKeyAspect) newEntities.delete(mutation.urn)
          results.push(await this.delete(mutation))
          break
        case 'rollback':
          if (mutation.isKeyAspect) newEntities.delete(mutation.urn)
          results.push(await this.rollback(mutation))
          break
        case 'timeseries':
          await appendTimeseries(this.tx, mutation.row)
          results.push({ urn: mutation.row.urn, aspect: mutation.row.aspect, changed: true })
          break
      }
    }
    return { results, seq: this.seq }
  }

  /**
   * Re-announces values: replaces their edges and logs an UPSERT each, rows untouched. An
   * item whose value is no longer the stored latest one (written or deleted since it was
   * scanned) is skipped: the write that changed it logged its own change and replaced the
   * edges, and restating the stale value would roll the indexes back. The check runs under
   * the change-log lock, so no write can slip in between it and the restatement.
   */
  async restate(items: readonly RestateItem[], created: AuditStamp): Promise<{ seq: number }> {
    const stored = new Map<string, unknown>()
    if (items.length > 0) {
      const rows = await this.tx.run(LATEST_VALUES, {
        keys: items.map((i) => ({ urn: i.urn, aspect: i.aspect })),
      })
      for (const r of rows) stored.set(`${r.urn}\u0000${r.aspect}`, r.metadata)
    }
    for (const item of items) {
      const value = canonicalJson(item.value)
      if (stored.get(`${item.urn}\u0000${item.aspect}`) !== value) continue
      await this.replaceEdges(item.urn, item.entityType, item.aspect, item.edges)
      await this.log({
        urn: item.urn,
        entityType: item.entityType,
        aspect: item.aspect,
        change: 'UPSERT',
        value,
        entityDeleted: false,
        created,
        systemMetadata: null,
      })
    }
    return { seq: this.seq }
  }

  /** The upsert a patch amounts to, computed from the latest value under the change-log lock. */
  private async patched(m: PatchAspect): Promise<UpsertAspect> {
    const row = await this.tx.one(CURRENT_ASPECT, { urn: m.urn, aspect: m.aspect })
    const current = (row.current ?? undefined) as AspectNode | undefined
    return patchToUpsert(m, current ? (JSON.parse(current.metadata) as Record<string, unknown>) : undefined)
  }

  /** Writes version 0 (moving a different previous value to max+1); false for a no-op. */
  private async upsert(m: UpsertAspect): Promise<boolean> {
    const json = m.valueJson ?? canonicalJson(m.value)
    const row = await this.tx.one(CURRENT_ASPECT, { urn: m.urn, aspect: m.aspect })
    const current = (row.current ?? undefined) as AspectNode | undefined
    const pre = m.precondition
    // Under the change-log lock: no write slips in between this check and the write.
    if (pre?.require === 'latest-unchanged' && !isLatestUnchanged(pre, current?.metadata)) {
      throw new LatestChangedError(m.urn, m.aspect)
    }
    if (current && pre?.require === 'aspect-absent') {
      return refuse(m, 'Cannot perform CREATE since the aspect already exists.')
    }
    const sm = systemMetadataWithDefaults(
      m.systemMetadata as SystemMetadata | undefined,
      m.created,
      current?.systemMetadata,
    )
    const systemMetadata = JSON.stringify(sm)
    const run = { runId: sm.runId ?? null, lastObserved: int(sm.lastObserved ?? m.created.time) }
    if (current && current.metadata === json) {
      await this.tx.run(TOUCH_SYSTEM_METADATA, { urn: m.urn, aspect: m.aspect, systemMetadata, ...run })
      return false
    }
    await this.tx.run(WRITE_LATEST, {
      urn: m.urn,
      entityType: m.entityType,
      aspect: m.aspect,
      archiveAs: current ? int(Number(row.maxVersion) + 1) : null,
      metadata: json,
      systemMetadata,
      ...run,
      createdOn: int(m.created.time),
      createdBy: m.created.actor,
    })
    await this.replaceEdges(m.urn, m.entityType, m.aspect, m.edges)
    await this.log({
      urn: m.urn,
      entityType: m.entityType,
      aspect: m.aspect,
      change: 'UPSERT',
      value: json,
      entityDeleted: false,
      created: m.created,
      systemMetadata,
    })
    return true
  }

  /**
   * Deletes an aspect (all versions and its edges), or with the key aspect the entity: its
   * rows, outgoing edges and time series. False when there was nothing to delete.
   */
  private async delete(m: DeleteAspect): Promise<MutationResult> {
    let removed: number
    if (m.isKeyAspect) {
      removed = Number((await this.tx.one(DELETE_ENTITY_ROWS, { urn: m.urn })).removed)
      await this.tx.run(DELETE_OUTGOING_EDGES, { urn: m.urn })
      await this.tx.run(DELETE_INCOMING_EDGES, { urn: m.urn })
    } else {
      removed = Number((await this.tx.one(DELETE_ASPECT, { urn: m.urn, aspect: m.aspect })).removed)
      await this.tx.run(DELETE_EDGES_OF, { urn: m.urn, aspect: m.aspect })
    }
    await this.tx.run(DROP_EMPTY_ENTITY, { urn: m.urn })
    const result = { urn: m.urn, aspect: m.aspect, changed: removed > 0, rows: removed }
    if (removed === 0) return result
    await this.log({
      urn: m.urn,
      entityType: m.entityType,
      aspect: m.aspect,
      change: 'DELETE',
      value: null,
      entityDeleted: m.isKeyAspect,
      created: m.created,
      systemMetadata: null,
    })
    return result
  }

  /** Undoes the latest write of an aspect when `m.runId` made it (see {@link RollbackAspect}). */
  private async rollback(m: RollbackAspect): Promise<MutationResult> {
    const row = await this.tx.one(CURRENT_ASPECT, { urn: m.urn, aspect: m.aspect })
    const current = (row.current ?? undefined) as AspectNode | undefined
    const runId = current?.systemMetadata
      ? (JSON.parse(current.systemMetadata) as SystemMetadata).runId
      : undefined
    if (!current || runId !== m.runId) return { urn: m.urn, aspect: m.aspect, changed: false, rows: 0 }
    const previous = Number(row.maxVersion ?? 0)
    if (m.isKeyAspect || previous === 0) return this.delete({ ...m, kind: 'delete' })
    const promoted = await this.tx.one(PROMOTE_PREVIOUS, {
      urn: m.urn,
      aspect: m.aspect,
      previous: int(previous),
    })
    const restored = promoted.row as AspectNode
    const value = JSON.parse(restored.metadata) as Record<string, unknown>
    await this.replaceEdges(m.urn, m.entityType, m.aspect, m.edgesOf(value))
    await this.log({
      urn: m.urn,
      entityType: m.entityType,
      aspect: m.aspect,
      change: 'UPSERT',
      value: restored.metadata,
      entityDeleted: false,
      created: m.created,
      systemMetadata: restored.systemMetadata ?? null,
    })
    return { urn: m.urn, aspect: m.aspect, changed: true, rows: 1 }
  }

  /** Replaces the edges an aspect produced: one statement per relationship type. */
  private async replaceEdges(
    urn: string,
    entityType: string,
    aspect: string,
    edges: readonly EdgeTarget[],
  ): Promise<void> {
    await this.tx.run(DELETE_EDGES_OF, { urn, aspect })
    const byType = new Map<string, Array<{ destination: string; destinationType: string | null }>>()
    for (const e of edges) {
      const list = byType.get(e.type) ?? []
      list.push({ destination: e.destination, destinationType: entityTypeOf(e.destination) })
      byType.set(e.type, list)
    }
    for (const [type, list] of byType) {
      await this.tx.run(mergeEdges(type), { urn, entityType, aspect, edges: list })
    }
  }

  private async log(entry: LogEntry): Promise<void> {
    const row = await this.tx.one(LOG_CHANGE, {
      counter: CHANGE_LOG_COUNTER,
      urn: entry.urn,
      entityType: entry.entityType,
      aspect: entry.aspect,
      change: entry.change,
      value: entry.value,
      entityDeleted: entry.entityDeleted,
      createdOn: int(entry.created.time),
      createdBy: entry.created.actor,
      systemMetadata: entry.systemMetadata,
    })
    this.seq = Number(row.seq)
  }
}

/** A write whose precondition failed: skipped when it asked to be dropped, refused otherwise. */
function refuse(m: UpsertAspect, message: string): false {
  if ((m.precondition as CreatePrecondition | undefined)?.drop) return false
  throw new ValidationError(`${message} (${m.urn}, ${m.aspect})`)
}

function mutationUrn(m: Mutation): string {
  return m.kind === 'timeseries' ? m.row.urn : m.urn
}
