import {
  type EntityRef,
  type EntitySpec,
  InvalidInputError,
  type Registry,
  type StoredAspect,
  type SystemMetadata,
  ValidationError,
} from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { Proposal } from '../schemas/ingest.js'
import type { EntityV3 } from '../schemas/openapi.js'
import type { EntityAdminService } from './entity-admin-service.js'
import type { IngestService } from './ingest-service.js'

/** How a v3 write proposes its aspects (DataHub's change types). */
export type V3ChangeType = 'UPSERT' | 'CREATE' | 'CREATE_ENTITY' | 'PATCH'

/** One entity of a v3 write body, after schema validation. */
export type V3WriteItem = { urn: string } & Record<string, unknown>

interface AspectItem {
  value?: unknown
  systemMetadata?: Record<string, unknown> | null
  headers?: Record<string, string> | null
}

/** What a read returns for each URN: the aspects wanted (all when none are named). */
export interface V3ReadRequest {
  readonly urn: string
  readonly aspects?: readonly string[]
}

/**
 * DataHub's OpenAPI v3 entity API over the same services as Rest.li: writes become proposals
 * for the ingest service (so versions, edges, the change log and search follow exactly as a
 * Rest.li `ingestProposal`), reads come from the store's latest rows, shaped as GenericEntityV3.
 */
export class OpenApiEntityService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly ingest: IngestService,
    private readonly admin: EntityAdminService,
  ) {}

  /** The entity type of a path, in any letter case as DataHub matches it; an unknown one is a 400. */
  entitySpec(entityName: string): EntitySpec {
    const spec = this.registry.findEntityAnyCase(entityName)
    if (!spec) throw new InvalidInputError(`Unknown entity: ${entityName}`)
    return spec
  }

  /** Resolves a URN of a path or body; malformed, unknown or of another entity type is a 400. */
  resolve(entityName: string, urn: string): EntityRef {
    const entity = this.entitySpec(entityName)
    let ref: EntityRef
    try {
      ref = this.registry.resolveUrn(urn)
    } catch (err) {
      if (err instanceof ValidationError) throw new InvalidInputError(err.message)
      throw err
    }
    if (ref.entity.name !== entity.name) {
      throw new InvalidInputError(
        `URN entity type does not match the path's entity type. ${ref.entity.name} != ${entity.name}`,
      )
    }
    return ref
  }

  /** The aspect of an entity by name (case-insensitive, as DataHub looks it up); a 400 when unknown. */
  aspectName(entity: EntitySpec, name: string): string {
    const exact = this.registry.findAspect(entity, name)
    if (exact) return exact.name
    const lower = name.toLowerCase()
    const found = [entity.keyAspect, ...entity.aspects].find((a) => a.toLowerCase() === lower)
    if (found) return found
    throw new InvalidInputError(`Unknown aspect ${name} for entity ${entity.name}`)
  }

  /**
   * Writes a batch (all or nothing) and answers each entity with the aspects it wrote, as
   * stored after the write.
   */
  async write(
    entityName: string,
    items: readonly V3WriteItem[],
    changeType: V3ChangeType,
    actor: string,
    withSystemMetadata: boolean,
  ): Promise<EntityV3[]> {
    const proposals: Proposal[] = []
    const written = new Map<string, Set<string>>()
    for (const [i, item] of items.entries()) {
      if (typeof item.urn !== 'string') throw new InvalidInputError(`[${i}]: Missing \`urn\` field`)
      const ref = this.resolve(entityName, item.urn)
      for (const [name, raw] of Object.entries(item)) {
        if (name === 'urn') continue
        const aspect = this.aspectName(ref.entity, name)
        proposals.push(this.proposal(ref, aspect, raw as AspectItem, changeType))
        const set = written.get(ref.urn) ?? new Set<string>()
        written.set(ref.urn, set.add(aspect))
      }
    }
    if (proposals.length === 0) return []
    await this.ingest.ingestProposals(proposals, actor)
    const requests = [...written].map(([urn, aspects]) => ({ urn, aspects: [...aspects] }))
    return this.read(requests, withSystemMetadata, proposals)
  }

  /**
   * The latest aspects of each URN (time-series: the newest row); URNs with none are left
   * out, as DataHub does. `sent` supplies time-series values a write just appended.
   */
  async read(
    requests: readonly V3ReadRequest[],
    withSystemMetadata: boolean,
    sent: readonly Proposal[] = [],
  ): Promise<EntityV3[]> {
    const rows = await this.store.latest(requests.map((r) => r.urn))
    const out: EntityV3[] = []
    for (const request of requests) {
      const ref = this.registry.resolveUrn(request.urn)
      const wanted = request.aspects && request.aspects.length > 0 ? new Set(request.aspects) : undefined
      const entity: EntityV3 = { urn: ref.urn }
      for (const row of rows.get(ref.urn) ?? []) {
        if (wanted && !wanted.has(row.aspect)) continue
        if (!this.registry.hasAspect(ref.entity, row.aspect)) continue
        entity[row.aspect] = item(row, withSystemMetadata)
      }
      for (const name of wanted ?? []) {
        if (entity[name] || !this.registry.findAspect(ref.entity, name)?.timeseries) continue
        const latest = await this.latestTimeseries(ref, name)
        const echoed = sent.find((p) => p.entityUrn === ref.urn && p.aspectName === name)
        const value = latest?.value ?? (echoed?.aspect ? JSON.parse(echoed.aspect.value) : undefined)
        if (value === undefined) continue
        const sm = latest?.systemMetadata ?? echoed?.systemMetadata
        entity[name] = { value, ...(withSystemMetadata && sm ? { systemMetadata: sm } : {}) }
      }
      if (Object.keys(entity).length > 1) out.push(entity)
    }
    return out
  }

  /** One version of one aspect (0: the latest), or undefined. */
  async aspectVersion(
    ref: EntityRef,
    aspect: string,
    version: number,
    withSystemMetadata: boolean,
  ): Promise<EntityV3 | undefined> {
    if (version === 0) return (await this.read([{ urn: ref.urn, aspects: [aspect] }], withSystemMetadata))[0]
    const row = await this.store.version(ref.urn, aspect, version)
    return row ? { urn: ref.urn, [aspect]: item(row, withSystemMetadata) } : undefined
  }

  /** HEAD: the entity (key aspect, not soft-deleted unless asked) or one of its aspects exists. */
  async exists(ref: EntityRef, aspect: string | undefined, includeSoftDelete: boolean): Promise<boolean> {
    if (!(await this.admin.exists(ref.urn, includeSoftDelete))) return false
    if (aspect === undefined) return true
    if (this.registry.findAspect(ref.entity, aspect)?.timeseries)
      return (await this.latestTimeseries(ref, aspect)) !== undefined
    return ((await this.store.latest([ref.urn], [aspect])).get(ref.urn)?.length ?? 0) > 0
  }

  /**
   * DELETE of an entity: without `aspects` (or with its key aspect) the hard delete of
   * `/entities?action=delete`; otherwise those aspects, in one batch.
   */
  async deleteEntity(ref: EntityRef, aspects: readonly string[], clear: boolean, actor: string) {
    const names = clear
      ? ref.entity.aspects.filter((a) => a !== ref.entity.keyAspect)
      : aspects.map((a) => this.aspectName(ref.entity, a))
    if (names.length === 0 || names.includes(ref.entity.keyAspect)) {
      await this.admin.delete(ref.urn, {}, actor)
      return
    }
    const versioned = names.filter((n) => !this.registry.findAspect(ref.entity, n)?.timeseries)
    for (const name of names.filter((n) => !versioned.includes(n))) await this.deleteAspect(ref, name, actor)
    if (versioned.length === 0) return
    await this.ingest.ingestProposals(
      versioned.map((aspectName) => ({
        entityType: ref.entity.name,
        entityUrn: ref.urn,
        changeType: 'DELETE',
        aspectName,
      })),
      actor,
    )
  }

  /** DELETE of one aspect: a versioned aspect through the ingest path; a time-series aspect's newest row. */
  async deleteAspect(ref: EntityRef, aspect: string, actor: string): Promise<void> {
    if (this.registry.findAspect(ref.entity, aspect)?.timeseries) {
      const latest = await this.latestTimeseries(ref, aspect)
      if (!latest) return
      await this.admin.delete(
        ref.urn,
        {
          aspectName: aspect,
          startTimeMillis: latest.timestampMillis,
          endTimeMillis: latest.timestampMillis,
        },
        actor,
      )
      return
    }
    await this.ingest.ingestProposals(
      [{ entityType: ref.entity.name, entityUrn: ref.urn, changeType: 'DELETE', aspectName: aspect }],
      actor,
    )
  }

  private latestTimeseries(ref: EntityRef, aspect: string) {
    return this.store
      .timeseries({ urn: ref.urn, entityType: ref.entity.name, aspect, limit: 1 })
      .then((rows) => rows[0])
  }

  private proposal(ref: EntityRef, aspect: string, raw: AspectItem, changeType: V3ChangeType): Proposal {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new InvalidInputError(`${ref.urn} ${aspect}: the aspect must be an object with a \`value\``)
    if (raw.value === undefined || raw.value === null) throw new InvalidInputError('Missing `value` field')
    if (changeType === 'PATCH' && !Array.isArray(raw.value) && !(raw.value as { patch?: unknown }).patch) {
      throw new InvalidInputError('Missing `patch` field.')
    }
    return {
      entityType: ref.entity.name,
      entityUrn: ref.urn,
      changeType,
      aspectName: aspect,
      aspect: {
        value: JSON.stringify(raw.value),
        contentType: changeType === 'PATCH' ? 'application/json-patch+json' : 'application/json',
      },
      ...(raw.systemMetadata ? { systemMetadata: raw.systemMetadata as SystemMetadata } : {}),
      ...(raw.headers ? { headers: raw.headers } : {}),
    }
  }
}

function item(row: StoredAspect, withSystemMetadata: boolean) {
  if (!withSystemMetadata) return { value: row.value }
  return {
    value: row.value,
    ...(row.systemMetadata ? { systemMetadata: row.systemMetadata } : {}),
    auditStamp: { time: row.created.time, actor: row.created.actor },
  }
}
