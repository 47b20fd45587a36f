import {
  type AspectSpec,
  type AuditStamp,
  applyPatch,
  canonicalJson,
  type EntityRef,
  type EntitySpec,
  InvalidInputError,
  JsonText,
  type PreparedAspect,
  parsePatchBody,
  type Registry,
  type SystemMetadata,
  ValidationError,
} from '@catalog/core'
import type { EntityDefaults, Mutation, UpsertAspect, WriteBatch, WritePrecondition } from '@catalog/store'
import type { Proposal, SnapshotEntity } from '../schemas/ingest.js'
import { LazyDefaults } from './lazy-defaults.js'
import type { OffLoopPatch } from './patch-off-loop.js'

export const UPSERT_LIKE = new Set(['UPSERT', 'CREATE', 'UPDATE', 'RESTATE', 'CREATE_ENTITY'])
const ALL_CHANGE_TYPES = ['UPSERT', 'CREATE', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE', 'CREATE_ENTITY']
/** Content types of a PATCH aspect: a JSON Patch document, or DataHub's `{patch, arrayPrimaryKeys}`. */
const PATCH_CONTENT_TYPE = /^application\/(json-patch\+)?json/i

/**
 * DataHub's create-if-not-exists change types. With the `If-None-Match: *` header a write
 * that finds something already there is dropped instead of refused.
 */
function precondition(
  changeType: string,
  headers: Readonly<Record<string, string>> | undefined,
): WritePrecondition | undefined {
  const require =
    changeType === 'CREATE' ? 'aspect-absent' : changeType === 'CREATE_ENTITY' ? 'entity-absent' : undefined
  if (!require) return undefined
  const ifNoneMatch = Object.entries(headers ?? {}).find(([k]) => k.toLowerCase() === 'if-none-match')?.[1]
  return { require, ...(ifNoneMatch === '*' ? { drop: true } : {}) }
}

/**
 * One call's proposals or snapshots as one atomic store batch: validated against the registry,
 * with DataHub's default aspects for new entities, derived relationship edges, and PATCH
 * proposals as read-modify-write mutations the store applies atomically (or, applied off the
 * event loop already, as upserts guarded by "the latest value is still the one patched").
 */
export class BatchBuilder {
  private readonly mutations: Mutation[] = []
  private readonly defaults = new Map<string, EntityDefaults>()

  constructor(
    private readonly registry: Registry,
    private readonly created: AuditStamp,
  ) {}

  /**
   * The first refusal of a patch applied off the event loop: thrown by {@link build}, after every
   * proposal's own checks, where the in-transaction path would refuse it (at commit).
   */
  private refused: Error | undefined

  build(): WriteBatch {
    if (this.refused) throw this.refused
    return { mutations: this.mutations, defaults: [...this.defaults.values()], created: this.created }
  }

  /**
   * Adds one proposal; `large` is its aspect value already prepared off the event loop, if it
   * was, and `patched` a PATCH already applied off the event loop ({@link PatchOffLoop}).
   */
  addProposal(p: Proposal, where: string, large?: PreparedAspect | Error, patched?: OffLoopPatch): void {
    const entity = this.registry.entity(p.entityType)
    const changeType = p.changeType.toUpperCase()
    if (!ALL_CHANGE_TYPES.includes(changeType)) {
      throw new InvalidInputError(`ChangeType ${p.changeType} not in [${ALL_CHANGE_TYPES.join(', ')}]`)
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
    if (changeType !== 'PATCH' && !UPSERT_LIKE.has(changeType))
      throw new InvalidInputError(`ChangeType ${p.changeType} is not supported`)
    if (p.aspect === undefined) throw new ValidationError(`${where}: aspect is required for ${changeType}`)
    const allowed = changeType === 'PATCH' ? PATCH_CONTENT_TYPE : /^application\/json/i
    if (p.aspect.contentType !== undefined && !allowed.test(p.aspect.contentType)) {
      throw new ValidationError(
        `${where}: aspect.contentType ${p.aspect.contentType} is not supported; use ${changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json'}`,
      )
    }
    if (large instanceof Error) throw large
    if (large && changeType !== 'PATCH') {
      this.addPrepared(ref, spec, large, p.systemMetadata, precondition(changeType, p.headers))
      return
    }
    if (changeType === 'PATCH' && patched) {
      this.addPatched(ref, spec, patched, p.systemMetadata, where)
      return
    }
    let raw: unknown
    try {
      raw = JSON.parse(p.aspect.value)
    } catch (err) {
      throw new InvalidInputError(`${where}.aspect.value is not valid JSON: ${(err as Error).message}`)
    }
    if (changeType === 'PATCH') {
      this.addPatch(ref, spec, raw, p.systemMetadata, where)
      return
    }
    this.addValidated(ref, spec, raw, p.systemMetadata, precondition(changeType, p.headers))
  }

  /** Adds one snapshot; `large` holds aspects (by position) already prepared off the event loop. */
  addSnapshot(
    e: SnapshotEntity,
    systemMetadata: SystemMetadata | undefined,
    where: string,
    large?: ReadonlyMap<number, PreparedAspect | Error>,
  ): void {
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
    if (snapshot.aspects.length === 0)
      this.addAspect(ref, entity.keyAspect, this.registry.keyValue(ref), systemMetadata)
    snapshot.aspects.forEach((member: unknown, i: number) => {
      const entries = member && typeof member === 'object' ? Object.entries(member) : []
      if (entries.length !== 1)
        throw new ValidationError(`${where}: aspects[${i}] must hold exactly one aspect record`)
      const [aspectRecord, value] = entries[0] as [string, unknown]
      const spec = this.registry.aspectByRecord(aspectRecord)
      if (!spec || !this.registry.hasAspect(entity, spec.name)) {
        throw new ValidationError(`${where}: Unknown aspect ${aspectRecord} for entity ${entity.name}`)
      }
      const prepared = large?.get(i)
      if (prepared instanceof Error) throw prepared
      if (prepared) this.addPrepared(ref, spec, prepared, systemMetadata)
      // A large value the worker did not take (a time-series aspect) is parsed here.
      else this.addAspect(ref, spec.name, value instanceof JsonText ? value.parse() : value, systemMetadata)
    })
  }

  private resolve(urn: string): EntityRef {
    return this.registry.resolveUrn(urn)
  }

  /**
   * A PATCH: the patch is applied inside the store's write transaction to the latest value
   * (or the aspect's default), and the result is validated like an UPSERT. A patch that breaks
   * the schema fails its batch with a 422 and changes nothing.
   */
  private addPatch(
    ref: EntityRef,
    spec: AspectSpec,
    raw: unknown,
    systemMetadata: SystemMetadata | undefined,
    where: string,
  ): void {
    const entity = ref.entity
    if (spec.timeseries) {
      throw new ValidationError(
        `${where}: ChangeType not supported: PATCH for aspect ${spec.name} (a time-series aspect)`,
      )
    }
    const request = parsePatchBody(raw)
    const registry = this.registry
    this.ensureDefaults(ref, entity)
    this.mutations.push({
      kind: 'patch',
      urn: ref.urn,
      entityType: entity.name,
      aspect: spec.name,
      created: this.created,
      ...(systemMetadata ? { systemMetadata } : {}),
      apply: (current) => {
        const value = registry.validateAspect(spec, applyPatch(spec.name, current, request, { urn: ref.urn }))
        return { value, edges: registry.edges(entity, spec.name, value) }
      },
    })
  }

  /**
   * {@link addPatch} for a patch the large-aspect worker applied to the latest value it was given:
   * written as an upsert of the result, only onto that value (`latest-unchanged`). A malformed
   * patch is refused here, as {@link addPatch} does; a refused result at {@link build}.
   */
  private addPatched(
    ref: EntityRef,
    spec: AspectSpec,
    patched: OffLoopPatch,
    systemMetadata: SystemMetadata | undefined,
    where: string,
  ): void {
    if (spec.timeseries) {
      throw new ValidationError(
        `${where}: ChangeType not supported: PATCH for aspect ${spec.name} (a time-series aspect)`,
      )
    }
    const { outcome, base } = patched
    if (!outcome.ok) {
      if (!outcome.applying) throw outcome.error
      this.refused ??= outcome.error
      return
    }
    this.addPrepared(ref, spec, outcome.prepared, systemMetadata, {
      require: 'latest-unchanged',
      latestUtf8: base,
    })
  }

  private addAspect(
    ref: EntityRef,
    aspectName: string,
    raw: unknown,
    systemMetadata: SystemMetadata | undefined,
    condition?: WritePrecondition,
  ): void {
    this.addValidated(ref, this.registry.aspect(ref.entity, aspectName), raw, systemMetadata, condition)
  }

  /** {@link addAspect} of an aspect of the entity already looked up. */
  private addValidated(
    ref: EntityRef,
    spec: AspectSpec,
    raw: unknown,
    systemMetadata: SystemMetadata | undefined,
    condition?: WritePrecondition,
  ): void {
    const entity = ref.entity
    // An explicitly sent key aspect is stored as sent, as DataHub does.
    const value = this.registry.validateAspect(spec, raw)
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
    // Built member by member rather than with conditional spreads (one object per aspect, not three).
    const upsert: { -readonly [K in keyof UpsertAspect]: UpsertAspect[K] } = {
      kind: 'upsert',
      urn: ref.urn,
      entityType: entity.name,
      aspect: spec.name,
      value,
      // The stored text, made here (in the ingest's slices) rather than in the store's commit.
      valueJson: canonicalJson(value),
      created: this.created,
      edges: this.registry.edges(entity, spec.name, value),
    }
    if (systemMetadata) upsert.systemMetadata = systemMetadata
    if (condition) upsert.precondition = condition
    this.mutations.push(upsert)
  }

  /** {@link addAspect} for a value the large-aspect worker validated: stored as its text. */
  private addPrepared(
    ref: EntityRef,
    spec: AspectSpec,
    prepared: PreparedAspect,
    systemMetadata: SystemMetadata | undefined,
    condition?: WritePrecondition,
  ): void {
    const entity = ref.entity
    this.ensureDefaults(ref, entity)
    this.mutations.push({
      kind: 'upsert',
      urn: ref.urn,
      entityType: entity.name,
      aspect: spec.name,
      // Parsed only by a store that needs the object (the SQLite store keeps the text).
      get value() {
        return prepared.value
      },
      get valueJson() {
        return prepared.valueJson
      },
      valueUtf8: prepared.valueUtf8,
      created: this.created,
      ...(systemMetadata ? { systemMetadata } : {}),
      get edges() {
        return prepared.edges
      },
      edgesJson: prepared.edgesJson,
      ...(condition ? { precondition: condition } : {}),
    })
  }

  /**
   * Notes the entity's default aspects for the store, which writes them only when the entity is
   * new. They are made when the store first asks for them: most writes are to an entity that
   * has them already, and making them (key, browse paths, edges) is wasted there.
   */
  private ensureDefaults(ref: EntityRef, entity: EntitySpec): void {
    if (!this.defaults.has(ref.urn)) this.defaults.set(ref.urn, new LazyDefaults(this.registry, ref, entity))
  }
}
