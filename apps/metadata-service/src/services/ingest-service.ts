import {
  type AuditStamp,
  type EntityRef,
  type EntitySpec,
  InvalidInputError,
  PreconditionError,
  type Registry,
  type SystemMetadata,
  ValidationError,
} from '@catalog/core'
import type { EntityDefaults, MetadataStore, Mutation, WriteBatch, WriteOutcome } from '@catalog/store'
import type { Proposal, SnapshotEntity } from '../schemas/ingest.js'

const UPSERT_LIKE = new Set(['UPSERT', 'CREATE', 'UPDATE', 'RESTATE', 'CREATE_ENTITY'])
const ALL_CHANGE_TYPES = ['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE', 'CREATE_ENTITY']

/** Called after a write is durable, with its change-log position (one-process read-your-writes). */
export type AfterWrite = (seq: number) => Promise<void>

/**
 * Turns proposals (MCPs) and snapshots (MCEs) into one atomic store batch each: validates
 * against the registry, regenerates key aspects from URNs, adds DataHub's default aspects for
 * new entities and derives relationship edges.
 */
export class IngestService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly afterWrite?: AfterWrite,
  ) {}

  /** Applies proposals all-or-nothing; returns the URN of the first. */
  async ingestProposals(proposals: readonly Proposal[], actor: string): Promise<WriteOutcome> {
    const created = stamp(actor)
    const builder = new BatchBuilder(this.registry, created)
    for (const [i, p] of proposals.entries())
      builder.addProposal(p, proposals.length > 1 ? `proposals[${i}]` : 'proposal')
    return this.commit(builder.build())
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
    const builder = new BatchBuilder(this.registry, stamp(actor))
    for (const [i, e] of entities.entries()) {
      builder.addSnapshot(e, systemMetadata[i], entities.length > 1 ? `entities[${i}]` : 'entity')
    }
    return this.commit(builder.build())
  }

  private async commit(batch: WriteBatch): Promise<WriteOutcome> {
    const outcome = await this.store.write(batch)
    if (this.afterWrite) await this.afterWrite(outcome.seq)
    return outcome
  }
}

function stamp(actor: string): AuditStamp {
  return { time: Date.now(), actor }
}

class BatchBuilder {
  private readonly mutations: Mutation[] = []
  private readonly defaults = new Map<string, EntityDefaults>()

  constructor(
    private readonly registry: Registry,
    private readonly created: AuditStamp,
  ) {}

  build(): WriteBatch {
    return { mutations: this.mutations, defaults: [...this.defaults.values()], created: this.created }
  }

  addProposal(p: Proposal, where: string): void {
    const entity = this.registry.entity(p.entityType)
    const changeType = p.changeType.toUpperCase()
    if (!ALL_CHANGE_TYPES.includes(changeType)) {
      throw new InvalidInputError(`ChangeType ${p.changeType} not in [${ALL_CHANGE_TYPES.join(', ')}]`)
    }
    if (changeType === 'PATCH') {
      throw new ValidationError(
        `${where}: changeType PATCH is not supported by this server; send the whole aspect with UPSERT`,
      )
    }
    if (p.entityUrn === undefined) throw new ValidationError(`${where}: entityUrn is required`)
    const ref = this.resolve(p.entityUrn)
    if (ref.entity.name !== entity.name) {
      throw new ValidationError(
        `URN entity type does not match MCP entity type. ${ref.entity.name} != ${entity.name}`,
      )
    }
    if (p.aspectName === undefined) throw new ValidationError(`${where}: aspectName is required`)
    const spec = this.registry.aspect(entity, p.aspectName)
    if (changeType === 'DELETE') {
      this.mutations.push({
        kind: 'delete',
        urn: ref.urn,
        entityType: entity.name,
        aspect: spec.name,
        created: this.created,
        isKeyAspect: spec.name === entity.keyAspect,
      })
      return
    }
    if (!UPSERT_LIKE.has(changeType))
      throw new InvalidInputError(`ChangeType ${p.changeType} is not supported`)
    if (p.aspect === undefined) throw new ValidationError(`${where}: aspect is required for ${changeType}`)
    if (p.aspect.contentType !== undefined && !/^application\/json/i.test(p.aspect.contentType)) {
      throw new ValidationError(
        `${where}: aspect.contentType ${p.aspect.contentType} is not supported; use application/json`,
      )
    }
    let raw: unknown
    try {
      raw = JSON.parse(p.aspect.value)
    } catch (err) {
      throw new InvalidInputError(`${where}.aspect.value is not valid JSON: ${(err as Error).message}`)
    }
    this.addAspect(ref, spec.name, raw, p.systemMetadata)
  }

  addSnapshot(e: SnapshotEntity, systemMetadata: SystemMetadata | undefined, where: string): void {
    const members = Object.entries(e.value)
    if (members.length !== 1)
      throw new ValidationError(`${where}.value must hold exactly one snapshot record`)
    const [record, body] = members[0] as [string, unknown]
    const entity = this.registry.entityBySnapshot(record)
    if (!entity) throw new ValidationError(`${where}: unknown snapshot record ${record}`)
    const snapshot = body as { urn?: unknown; aspects?: unknown }
    if (typeof snapshot?.urn !== 'string') throw new ValidationError(`${where}: ${record}.urn is required`)
    if (!Array.isArray(snapshot.aspects))
      throw new ValidationError(`${where}: ${record}.aspects must be a list`)
    const ref = this.resolve(snapshot.urn)
    if (ref.entity.name !== entity.name) {
      throw new ValidationError(`${where}: urn ${snapshot.urn} is not a ${entity.name} urn (${record})`)
    }
    if (snapshot.aspects.length === 0) this.addAspect(ref, entity.keyAspect, ref.key, systemMetadata)
    snapshot.aspects.forEach((member: unknown, i: number) => {
      const entries = member && typeof member === 'object' ? Object.entries(member) : []
      if (entries.length !== 1)
        throw new ValidationError(`${where}: aspects[${i}] must hold exactly one aspect record`)
      const [aspectRecord, value] = entries[0] as [string, unknown]
      const spec = this.registry.aspectByRecord(aspectRecord)
      if (!spec || !this.registry.hasAspect(entity, spec.name)) {
        throw new ValidationError(`${where}: Unknown aspect ${aspectRecord} for entity ${entity.name}`)
      }
      this.addAspect(ref, spec.name, value, systemMetadata)
    })
  }

  private resolve(urn: string): EntityRef {
    return this.registry.resolveUrn(urn)
  }

  private addAspect(
    ref: EntityRef,
    aspectName: string,
    raw: unknown,
    systemMetadata: SystemMetadata | undefined,
  ): void {
    const entity = ref.entity
    const spec = this.registry.aspect(entity, aspectName)
    // A key aspect is never taken from the caller: it is regenerated from the URN.
    const value =
      spec.name === entity.keyAspect ? this.registry.keyValue(ref) : this.registry.validateAspect(spec, raw)
    if (spec.timeseries) {
      this.mutations.push({
        kind: 'timeseries',
        row: {
          urn: ref.urn,
          entityType: entity.name,
          aspect: spec.name,
          timestampMillis: value.timestampMillis as number,
          value,
          ...(systemMetadata ? { systemMetadata } : {}),
        },
      })
      return
    }
    this.ensureDefaults(ref, entity)
    this.mutations.push({
      kind: 'upsert',
      urn: ref.urn,
      entityType: entity.name,
      aspect: spec.name,
      value,
      created: this.created,
      ...(systemMetadata ? { systemMetadata } : {}),
      edges: this.registry.edges(entity, spec.name, value),
    })
  }

  private ensureDefaults(ref: EntityRef, entity: EntitySpec): void {
    if (this.defaults.has(ref.urn)) return
    this.defaults.set(ref.urn, {
      urn: ref.urn,
      entityType: entity.name,
      keyAspect: entity.keyAspect,
      aspects: this.registry.defaultAspects(ref).map((d) => ({
        aspect: d.aspect,
        value: d.value,
        edges: this.registry.edges(entity, d.aspect, d.value),
      })),
    })
  }
}
