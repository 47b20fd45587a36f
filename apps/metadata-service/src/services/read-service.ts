import {
  type EntityRef,
  InvalidInputError,
  NotFoundError,
  type Registry,
  type StoredAspect,
  SYSTEM_ACTOR,
  ValidationError,
} from '@catalog/core'
import type { MetadataStore, StoredAspectJson } from '@catalog/store'
import { AnswerCache } from './answer-cache.js'
import { LatestJsonCache } from './latest-json-cache.js'
import { quoted } from './quoted.js'

/** `EnvelopedAspect` of an `EntityResponse`. */
export interface EnvelopedAspect {
  name: string
  type: 'VERSIONED'
  version: number
  value: Record<string, unknown>
  created: { actor: string; time: number }
  systemMetadata?: Record<string, unknown>
}

/** `EntityResponse` as `/entitiesV2` returns it. */
export interface EntityResponse {
  urn: string
  entityName: string
  aspects: Record<string, EnvelopedAspect>
}

export class AspectNotFoundError extends NotFoundError {}

/** Characters of resolved URNs remembered at most (all are dropped past it). */
const MAX_RESOLVED_CHARS = 1024 * 1024

/** Reads of entities and aspect versions, shaped as DataHub's Rest.li resources answer. */
export class ReadService {
  /**
   * Latest rows as stored JSON, remembered until the change log shows them written, with the
   * entity answers made from them (which live exactly as long as their rows).
   */
  private readonly latestRows: LatestJsonCache
  /** URNs resolved lately: the registry and a URN's parse never change. */
  private readonly resolved = new Map<string, EntityRef>()
  /** Characters of the URNs in {@link resolved}. */
  private resolvedChars = 0
  /** Answers that span entities (relationships), remembered until the next write. */
  readonly answers: AnswerCache

  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {
    this.latestRows = new LatestJsonCache(store)
    this.answers = new AnswerCache(store)
  }

  /** Resolves a URN for a read: malformed URNs and unknown entity types are 400s. */
  resolve(urn: string): EntityRef {
    const known = this.resolved.get(urn)
    if (known) return known
    try {
      const ref = this.registry.resolveUrn(urn)
      if (this.resolvedChars + urn.length > MAX_RESOLVED_CHARS) {
        this.resolved.clear()
        this.resolvedChars = 0
      }
      this.resolved.set(urn, ref)
      this.resolvedChars += urn.length
      return ref
    } catch (err) {
      if (err instanceof ValidationError) throw new InvalidInputError(err.message)
      throw err
    }
  }

  /**
   * `GET /entitiesV2/<urn>`: latest versioned aspects (time-series excluded), the key aspect
   * always present — synthesized when the entity has no row, so a missing entity is a 200.
   */
  async entityV2(urn: string, aspects?: readonly string[]): Promise<EntityResponse> {
    return (await this.batchEntityV2([urn], aspects)).get(urn) as EntityResponse
  }

  async batchEntityV2(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<Map<string, EntityResponse>> {
    const { refs, wanted } = this.plan(urns, aspects)
    const rows = await this.store.latest(urns, wanted)
    const out = new Map<string, EntityResponse>()
    for (const ref of refs) {
      const response: EntityResponse = { urn: ref.urn, entityName: ref.entity.name, aspects: {} }
      const stored = rows.get(ref.urn) ?? []
      const key = stored.find((r) => r.aspect === ref.entity.keyAspect)
      response.aspects[ref.entity.keyAspect] = key ? envelope(key) : this.syntheticKey(ref)
      for (const row of stored) {
        if (row.aspect === ref.entity.keyAspect || !this.registry.hasAspect(ref.entity, row.aspect)) continue
        response.aspects[row.aspect] = envelope(row)
      }
      out.set(ref.urn, response)
    }
    return out
  }

  /**
   * {@link entityV2} as JSON text: byte for byte what `EntityResponseSchema` serializes the
   * {@link EntityResponse} to, with the stored values and system metadata spliced in as the
   * JSON text the store holds instead of being parsed and serialized again.
   */
  async entityV2Json(urn: string, aspects?: readonly string[]): Promise<string> {
    if (aspects && aspects.length > 0)
      return (await this.batchEntityV2Json([urn], aspects)).get(urn) as string
    const ref = this.resolve(urn)
    return this.entityText(ref, await this.latestRows.latestOne(urn))
  }

  /** {@link batchEntityV2} as JSON text per URN (see {@link entityV2Json}). */
  async batchEntityV2Json(
    urns: readonly string[],
    aspects?: readonly string[],
  ): Promise<Map<string, string>> {
    const { refs, wanted } = this.plan(urns, aspects)
    const rows = await this.latestRows.latestJson(urns, wanted)
    const out = new Map<string, string>()
    for (const ref of refs) out.set(ref.urn, this.entityText(ref, rows.get(ref.urn) ?? []))
    return out
  }

  /** The entity answer of rows read through the cache: made once per remembered row list. */
  private entityText(ref: EntityRef, stored: readonly StoredAspectJson[]): string {
    const key = stored.find((r) => r.aspect === ref.entity.keyAspect)
    // Without a stored key row the key is synthesized with the time of the read: not kept.
    return this.latestRows.answer(ref.urn, stored, () => this.entityJson(ref, stored, key), key !== undefined)
  }

  private entityJson(ref: EntityRef, stored: readonly StoredAspectJson[], key?: StoredAspectJson): string {
    const keyName = ref.entity.keyAspect
    let text = `{"urn":${JSON.stringify(ref.urn)},"entityName":${quoted(ref.entity.name)},"aspects":{`
    text += `${quoted(keyName)}:${key ? envelopeJson(key) : envelopeJson(this.syntheticKeyJson(ref))}`
    for (const row of stored) {
      if (row.aspect === keyName || !this.registry.hasAspect(ref.entity, row.aspect)) continue
      text += `,${quoted(row.aspect)}:${envelopeJson(row)}`
    }
    return `${text}}}`
  }

  /**
   * `GET /entities/<urn>`: the legacy snapshot, key aspect first, aspects keyed by their
   * fully qualified record names.
   */
  async snapshot(urn: string, aspectRecords?: readonly string[]): Promise<Record<string, unknown>> {
    const ref = this.resolve(urn)
    if (!ref.entity.snapshot)
      throw new InvalidInputError(`Entity type ${ref.entity.name} has no snapshot form; use /entitiesV2`)
    const names = aspectRecords?.map((r) => {
      const spec = this.registry.aspectByRecord(r) ?? this.registry.findAspect(ref.entity, r)
      if (!spec || !this.registry.hasAspect(ref.entity, spec.name)) {
        throw new InvalidInputError(`Unknown aspect ${r} for entity ${ref.entity.name}`)
      }
      return spec.name
    })
    const response = await this.entityV2(urn, names)
    const key = this.registry.keyAspect(ref.entity)
    const aspects: Array<Record<string, unknown>> = [{ [key.record]: response.aspects[key.name]?.value }]
    for (const [name, enveloped] of Object.entries(response.aspects)) {
      if (name === key.name) continue
      aspects.push({ [this.registry.aspect(ref.entity, name).record]: enveloped.value })
    }
    return { value: { [ref.entity.snapshot]: { urn: ref.urn, aspects } } }
  }

  /** `GET /aspects/<urn>?aspect=X&version=N`: `{version, aspect: {<record>: value}}`, 404 without a row. */
  async versioned(
    urn: string,
    aspectName: string,
    version: number,
  ): Promise<{ version: number; aspect: Record<string, unknown> }> {
    const ref = this.resolve(urn)
    const spec = this.registry.findAspect(ref.entity, aspectName)
    if (!spec) throw new InvalidInputError(`Unknown aspect ${aspectName} for entity ${ref.entity.name}`)
    const row = spec.timeseries ? undefined : await this.store.version(ref.urn, spec.name, version)
    if (!row) throw new AspectNotFoundError(`No aspect ${aspectName} version ${version} for ${urn}`)
    return { version: row.version, aspect: { [spec.record]: row.value } }
  }

  /**
   * {@link versioned} as JSON text, byte for byte what the route's response schema serializes
   * it to: the latest version (0) is spliced from the stored JSON text, read through the cache
   * of latest rows; other versions are read and serialized.
   */
  async versionedJson(urn: string, aspectName: string, version: number): Promise<string> {
    if (version !== 0) return JSON.stringify(await this.versioned(urn, aspectName, version))
    const ref = this.resolve(urn)
    const spec = this.registry.findAspect(ref.entity, aspectName)
    if (!spec) throw new InvalidInputError(`Unknown aspect ${aspectName} for entity ${ref.entity.name}`)
    const row = spec.timeseries ? undefined : await this.latestRows.latestAspect(ref.urn, spec.name)
    if (!row) throw new AspectNotFoundError(`No aspect ${aspectName} version ${version} for ${urn}`)
    return `{"version":${row.version},"aspect":{${JSON.stringify(spec.record)}:${row.valueJson}}}`
  }

  /** Resolves the URNs, checks the aspect names, and names the aspects to read (undefined: all). */
  private plan(
    urns: readonly string[],
    aspects?: readonly string[],
  ): { refs: EntityRef[]; wanted: string[] | undefined } {
    const refs = urns.map((u) => this.resolve(u))
    for (const ref of refs) this.checkAspectNames(ref, aspects)
    const wanted =
      aspects && aspects.length > 0
        ? [...new Set([...aspects, ...refs.map((r) => r.entity.keyAspect)])]
        : undefined
    return { refs, wanted }
  }

  private syntheticKeyJson(ref: EntityRef): StoredAspectJson {
    const key = this.syntheticKey(ref)
    return {
      aspect: key.name,
      version: key.version,
      valueJson: JSON.stringify(key.value),
      created: key.created,
      systemMetadataJson: null,
    }
  }

  private checkAspectNames(ref: EntityRef, aspects?: readonly string[]): void {
    for (const name of aspects ?? []) {
      if (!this.registry.hasAspect(ref.entity, name)) {
        throw new InvalidInputError(`Unknown aspect ${name} for entity ${ref.entity.name}`)
      }
    }
  }

  private syntheticKey(ref: EntityRef): EnvelopedAspect {
    return {
      name: ref.entity.keyAspect,
      type: 'VERSIONED',
      version: 0,
      value: this.registry.keyValue(ref),
      created: { actor: SYSTEM_ACTOR, time: Date.now() },
    }
  }
}

function envelope(row: StoredAspect): EnvelopedAspect {
  return {
    name: row.aspect,
    type: 'VERSIONED',
    version: row.version,
    value: row.value,
    created: { actor: row.created.actor, time: row.created.time },
    ...(row.systemMetadata ? { systemMetadata: row.systemMetadata } : {}),
  }
}

/**
 * An `EnvelopedAspect` as JSON text, members in `EnvelopedAspectSchema`'s order (the order the
 * response serializer writes them in).
 */
function envelopeJson(row: StoredAspectJson): string {
  // Absent when the row has none, as `envelope` leaves it out (a stored JSON `null` included).
  const sm = row.systemMetadataJson
  const systemMetadata = sm === null || sm === '' || sm === 'null' ? '' : `,"systemMetadata":${sm}`
  return `{"name":${quoted(row.aspect)},"type":"VERSIONED","version":${row.version},"value":${row.valueJson},"created":{"actor":${quoted(row.created.actor)},"time":${row.created.time}}${systemMetadata}}`
}
