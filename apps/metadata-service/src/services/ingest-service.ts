import {
  type AuditStamp,
  inSlices,
  JsonText,
  LARGE_ASPECT_CHARS,
  PreconditionError,
  type PreparedAspect,
  prepareLargeAspect,
  type Registry,
  type SystemMetadata,
} from '@catalog/core'
import type { MetadataStore, Mutation, WriteBatch, WriteOutcome } from '@catalog/store'
import type { AspectTextUtf8, Proposal, SnapshotEntity } from '../schemas/ingest.js'

import { BatchBuilder, UPSERT_LIKE } from './batch-builder.js'
import { type OffLoopPatch, PatchOffLoop } from './patch-off-loop.js'
import { HookRaceError, WRITE_ATTEMPTS, type WriteHook, type WritePlan } from './write-hooks.js'

/** Called after a write is durable, with its change-log position (one-process read-your-writes). */
export type AfterWrite = (seq: number) => Promise<void>

/**
 * Turns proposals (MCPs) and snapshots (MCEs) into one atomic store batch each: validates
 * against the registry, adds DataHub's default aspects for new entities, derives
 * relationship edges, and turns PATCH proposals into read-modify-write mutations the store
 * applies atomically.
 */
export class IngestService {
  private readonly patches: PatchOffLoop

  /**
   * `hooks` add the writes a batch calls for (incident summaries, version sets: DataHub's hooks and
   * side effects), in order; a service without them (the bulk import's record converter) writes
   * batches as they come.
   */
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly afterWrite?: AfterWrite,
    private readonly hooks: readonly WriteHook[] = [],
  ) {
    this.patches = new PatchOffLoop(registry, store)
  }

  /**
   * Applies proposals all-or-nothing; returns the URN of the first. PATCHes of large aspects
   * are applied off the event loop ({@link PatchOffLoop}); the batch is built again when one of
   * them has to be applied again.
   */
  async ingestProposals(
    proposals: readonly Proposal[],
    actor: string,
    utf8Of?: AspectTextUtf8,
  ): Promise<WriteOutcome> {
    const created = stamp(actor)
    const where = (i: number) => (proposals.length > 1 ? `proposals[${i}]` : 'proposal')
    // Most calls hold no large value and no PATCH: they skip those steps' promises altogether.
    const large = proposals.some(isLargeValue) ? await this.prepareLarge(proposals, where, utf8Of) : NONE
    const build = async (patched: ReadonlyMap<number, OffLoopPatch>) => {
      const builder = new BatchBuilder(this.registry, created)
      if (proposals.length === 1)
        builder.addProposal(proposals[0] as Proposal, where(0), large.get(0), patched.get(0))
      // Validated in slices of a few milliseconds: a batch of 10,000 held the event loop ~0.5 s.
      else await inSlices(proposals, (p, i) => builder.addProposal(p, where(i), large.get(i), patched.get(i)))
      return this.commit(builder.build())
    }
    if (!proposals.some(isPatch)) return build(NONE)
    return this.patches.run(proposals, where, build, utf8Of)
  }

  /**
   * Validates the large aspect values of UPSERT-like proposals on a worker thread (a 6 MB schema
   * takes the event loop ~0.5 s), all at once. A failure is kept, not thrown: the batch builder
   * throws it in its turn, so the first bad proposal in order is the one reported.
   */
  private async prepareLarge(
    proposals: readonly Proposal[],
    where: (i: number) => string,
    utf8Of: AspectTextUtf8 | undefined,
  ): Promise<Map<number, PreparedAspect | Error>> {
    // Each failure is caught as it is made: no call's rejection waits unhandled for its turn.
    const calls = new Map<number, Promise<PreparedAspect | Error>>()
    for (const [i, p] of proposals.entries()) {
      if (p.aspect === undefined || !isLargeValue(p)) continue
      if (!UPSERT_LIKE.has(p.changeType.toUpperCase()) || p.aspectName === undefined) continue
      const entity = this.registry.findEntity(p.entityType)
      const spec = entity && this.registry.findAspect(entity, p.aspectName)
      if (!entity || !spec || spec.timeseries) continue
      const prepared = prepareLargeAspect({
        entityType: entity.name,
        aspect: spec.name,
        text: utf8Of?.(p.aspect) ?? p.aspect.value,
        where: where(i),
      })
      calls.set(
        i,
        prepared.catch((err: Error) => err),
      )
    }
    const out = new Map<number, PreparedAspect | Error>()
    for (const [i, call] of calls) out.set(i, await call)
    return out
  }

  /** Applies legacy snapshots (MCEs); each snapshot's aspects in one batch, all snapshots in one call. */
  async ingestSnapshots(
    entities: readonly SnapshotEntity[],
    systemMetadata: ReadonlyArray<SystemMetadata | undefined>,
    actor: string,
  ): Promise<WriteOutcome> {
    if (systemMetadata.length > 0 && systemMetadata.length !== entities.length) {
      throw new PreconditionError('entities and systemMetadata length must match')
    }
    const where = (i: number) => (entities.length > 1 ? `entities[${i}]` : 'entity')
    const large = await this.prepareLargeSnapshotAspects(entities)
    const builder = new BatchBuilder(this.registry, stamp(actor))
    await inSlices(entities, (e, i) => builder.addSnapshot(e, systemMetadata[i], where(i), large.get(i)))
    return this.commit(builder.build())
  }

  /**
   * {@link prepareLarge} for snapshots: an aspect the JSON body worker handed over as text (a
   * schema of thousands of fields, {@link JsonText}) is validated on the worker thread from that
   * text, so the event loop never builds the object. Keyed by snapshot, then by aspect position;
   * anything malformed is left to the batch builder, which reports it in its turn.
   */
  private async prepareLargeSnapshotAspects(
    entities: readonly SnapshotEntity[],
  ): Promise<Map<number, Map<number, PreparedAspect | Error>>> {
    const calls: Array<{ i: number; j: number; call: Promise<PreparedAspect | Error> }> = []
    // Most batches hold no JsonText: the walk looks for one before anything else (no garbage per item).
    await inSlices(entities, (e, i) => {
      const member = soleMember(e.value)
      const aspects = (member?.[1] as { aspects?: unknown } | null | undefined)?.aspects
      if (!member || !Array.isArray(aspects)) return
      aspects.forEach((one: unknown, j: number) => {
        const record = soleMember(one)
        if (!record || !(record[1] instanceof JsonText)) return
        const entity = this.registry.entityBySnapshot(member[0])
        const spec = this.registry.aspectByRecord(record[0])
        if (!entity || !spec || spec.timeseries || !this.registry.hasAspect(entity, spec.name)) return
        const where = `entities[${i}].aspects[${j}]`
        const text = record[1].take()
        calls.push({
          i,
          j,
          call: prepareLargeAspect({ entityType: entity.name, aspect: spec.name, text, where }).catch(
            (err: Error) => err,
          ),
        })
      })
    })
    const out = new Map<number, Map<number, PreparedAspect | Error>>()
    for (const { i, j, call } of calls) {
      const prepared = await call
      const forEntity = out.get(i) ?? new Map<number, PreparedAspect | Error>()
      forEntity.set(j, prepared)
      out.set(i, forEntity)
    }
    return out
  }

  /**
   * Undoes the last write of each aspect when `runId` made it, in one batch (DataHub's
   * rollback): the previous version comes back, or the aspect goes; a key aspect takes the
   * whole entity with it.
   */
  async rollback(rows: ReadonlyArray<{ urn: string; aspect: string }>, runId: string, actor: string) {
    const created = stamp(actor)
    const mutations: Mutation[] = rows.map(({ urn, aspect }) => {
      const { entity } = this.registry.resolveUrn(urn)
      return {
        kind: 'rollback',
        urn,
        entityType: entity.name,
        aspect,
        runId,
        created,
        isKeyAspect: aspect === entity.keyAspect,
        edgesOf: (value) => this.registry.edges(entity, aspect, value),
      }
    })
    return this.commit({ mutations, created })
  }

  /**
   * Writes `batch` with the writes its hooks call for; those known only once it is written (a
   * patched incident) follow in a second write, before the call is answered. The outcome has one
   * result per mutation of `batch` itself.
   */
  private async commit(batch: WriteBatch): Promise<WriteOutcome> {
    const { planned, outcome, after } = await this.planAndWrite(batch)
    const results = planned === batch ? outcome.results : outcome.results.slice(0, batch.mutations.length)
    let seq = outcome.seq
    try {
      for (const next of after) {
        const followUp = await next()
        if (followUp) seq = (await this.store.write(followUp)).seq
      }
    } finally {
      // The batch itself is durable: later reads see it even when a follow-up failed.
      await this.answered({ results, seq })
    }
    return { results, seq }
  }

  /**
   * `batch` with the writes its hooks call for, written. When a hook's guard finds what it read
   * changed by another call, nothing was written: it is planned again on a fresh read.
   */
  private async planAndWrite(batch: WriteBatch) {
    for (let attempt = 1; ; attempt++) {
      let planned = batch
      const after: Array<NonNullable<WritePlan['after']>> = []
      for (const hook of this.hooks) {
        const plan = await hook.plan(planned)
        planned = plan.batch
        if (plan.after) after.push(plan.after)
      }
      try {
        return { planned, outcome: await this.store.write(planned), after }
      } catch (err) {
        if (!(err instanceof HookRaceError) || attempt >= WRITE_ATTEMPTS) throw err
      }
    }
  }

  private async answered(outcome: WriteOutcome): Promise<WriteOutcome> {
    if (this.afterWrite) await this.afterWrite(outcome.seq)
    return outcome
  }
}

/** An empty map of prepared values or patches, by proposal position. */
const NONE: ReadonlyMap<number, never> = new Map<number, never>()

/** A proposal whose aspect value is large enough to be prepared off the event loop. */
const isLargeValue = (p: Proposal): boolean =>
  p.aspect !== undefined && p.aspect.value.length >= LARGE_ASPECT_CHARS

/** A PATCH proposal (which {@link PatchOffLoop} may apply off the event loop). */
const isPatch = (p: Proposal): boolean => p.changeType.toUpperCase() === 'PATCH'

/** The one own member of an object, or undefined (not an object, or none or several members). */
function soleMember(value: unknown): [string, unknown] | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  let found: [string, unknown] | undefined
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue
    if (found) return undefined
    found = [key, (value as Record<string, unknown>)[key]]
  }
  return found
}

function stamp(actor: string): AuditStamp {
  return { time: Date.now(), actor }
}
