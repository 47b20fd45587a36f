import { type Registry, ValidationError } from '@catalog/core'
import type { EntityDefaults, MetadataStore, Mutation, UpsertAspect, WriteBatch } from '@catalog/store'
import { LazyDefaults } from './lazy-defaults.js'
import { appended, HookRaceError, mayBeDropped, type WriteHook, type WritePlan } from './write-hooks.js'

type Json = Record<string, unknown>

const VERSION = 'versionProperties'
const SET = 'versionSetProperties'
/** The versioning scheme of a set whose first version names none (the model's default). */
const DEFAULT_SCHEME = 'LEXICOGRAPHIC_STRING'

/**
 * What a version set is at a point of the batch: its latest version, that version's sort id, and
 * whether that version is still a version of the set (its `versionProperties` may have gone: then
 * any new version takes over).
 */
interface SetState {
  latest: string
  sortId: string
  scheme: string
  latestIsVersion: boolean
}

/**
 * DataHub's VersionPropertiesSideEffect, kept in the write: a `versionProperties` write (MLflow,
 * Vertex AI and Unity Catalog models emit them; `linkAssetVersion` writes one) keeps its version
 * set. The first version creates the set (`versionSetProperties` with the version's scheme, the
 * version as latest); a version sorting after the latest (by `sortId`, as strings) becomes the
 * latest, and the previous one is marked `isLatest: false`. Each written version says whether it
 * is the latest (DataHub leaves that unset on a version that is not: it is written false here, so
 * that search's "latest versions only" keeps it out). Versions written in one batch are taken in
 * order. A version naming a set of another entity type is refused.
 */
export class VersionSets implements WriteHook {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {}

  async plan(batch: WriteBatch): Promise<WritePlan> {
    // Every write goes through here: a plain scan, nothing allocated for a batch without versions.
    const versions: Array<{ m: UpsertAspect; at: number }> = []
    for (let at = 0; at < batch.mutations.length; at++) {
      const m = batch.mutations[at] as Mutation
      if (m.kind === 'upsert' && m.aspect === VERSION && typeof m.value.versionSet === 'string')
        versions.push({ m, at })
    }
    if (versions.length === 0) return { batch }
    const states = await this.states([...new Set(versions.map((v) => v.m.value.versionSet as string))])
    const mutations: Mutation[] = [...batch.mutations]
    const extra: Mutation[] = []
    const defaults = new Map<string, EntityDefaults>()
    /** The place in `mutations` of each entity's latest version written so far in this batch. */
    const writtenAt = new Map<string, number>()
    for (const { m, at } of versions) {
      if (mayBeDropped(m)) continue
      const set = m.value.versionSet as string
      this.checkType(set, m.entityType)
      const sortId = typeof m.value.sortId === 'string' ? m.value.sortId : ''
      const state = states.get(set)
      let isLatest: boolean
      if (!state) {
        const scheme =
          typeof m.value.versioningScheme === 'string' ? m.value.versioningScheme : DEFAULT_SCHEME
        states.set(set, { latest: m.urn, sortId, scheme, latestIsVersion: true })
        extra.push(this.setWrite(set, undefined, m.urn, scheme, batch))
        if (!defaults.has(set)) defaults.set(set, this.setDefaults(set))
        isLatest = true
      } else if (state.latest === m.urn) {
        Object.assign(state, { sortId, latestIsVersion: true })
        isLatest = true
      } else if (!state.latestIsVersion || sortId > state.sortId) {
        const previous = state.latest
        const previousAt = writtenAt.get(previous)
        if (previousAt !== undefined)
          mutations[previousAt] = withLatest(mutations[previousAt] as UpsertAspect, false)
        else if (state.latestIsVersion) extra.push(this.notLatest(previous, set, batch))
        extra.push(this.setWrite(set, previous, m.urn, state.scheme, batch))
        Object.assign(state, { latest: m.urn, sortId, latestIsVersion: true })
        isLatest = true
      } else {
        isLatest = false
      }
      mutations[at] = withLatest(m, isLatest)
      writtenAt.set(m.urn, at)
    }
    return {
      batch: appended({ ...batch, mutations }, { mutations: extra, defaults: [...defaults.values()] }),
    }
  }

  /** Each set's latest version and its sort id, as stored; sets without properties are absent. */
  private async states(sets: readonly string[]): Promise<Map<string, SetState>> {
    const stored = await this.store.latest(sets, [SET])
    const found = new Map<string, { latest: string; scheme: string }>()
    for (const set of sets) {
      const value = stored.get(set)?.find((a) => a.aspect === SET)?.value
      if (typeof value?.latest === 'string') {
        found.set(set, { latest: value.latest, scheme: String(value.versioningScheme ?? DEFAULT_SCHEME) })
      }
    }
    const latest = await this.store.latest([...new Set([...found.values()].map((f) => f.latest))], [VERSION])
    const out = new Map<string, SetState>()
    for (const [set, f] of found) {
      const version = latest.get(f.latest)?.find((a) => a.aspect === VERSION)?.value
      const latestIsVersion = version?.versionSet === set
      const sortId = latestIsVersion && typeof version?.sortId === 'string' ? version.sortId : ''
      out.set(set, { ...f, sortId, latestIsVersion })
    }
    return out
  }

  /** DataHub's VersionPropertiesValidator: a set holds versions of one entity type (its key's). */
  private checkType(set: string, entityType: string): void {
    let ref: ReturnType<Registry['resolveUrn']>
    try {
      ref = this.registry.resolveUrn(set)
    } catch {
      return // the record's own validation reports a malformed URN
    }
    if (ref.entity.name !== 'versionSet') throw new ValidationError(`${set} is not a version set urn`)
    const expected = ref.key.entityType
    if (expected !== undefined && expected !== entityType) {
      throw new ValidationError(
        `Version Set specified entity type does not match, expected type: ${expected}`,
      )
    }
  }

  /**
   * The set's properties naming `latest`, written only if the set's latest is still `expected`
   * (undefined: no properties yet) when the write applies: two writers racing on one set cannot
   * both make their version the latest; the later one is refused and writes again.
   */
  private setWrite(
    set: string,
    expected: string | undefined,
    latest: string,
    scheme: string,
    batch: WriteBatch,
  ): Mutation {
    const entity = this.registry.resolveUrn(set).entity
    const spec = this.registry.aspect(entity, SET)
    return {
      kind: 'patch',
      urn: set,
      entityType: entity.name,
      aspect: SET,
      created: batch.created,
      apply: (current) => {
        if (current?.latest !== expected) throw changed(set)
        const value = this.registry.validateAspect(spec, { ...current, versioningScheme: scheme, latest })
        return { value, edges: this.registry.edges(entity, SET, value) }
      },
    }
  }

  private setDefaults(set: string): EntityDefaults {
    const ref = this.registry.resolveUrn(set)
    return new LazyDefaults(this.registry, ref, ref.entity)
  }

  /** The previous latest version marked not latest, in the write (refused if its version went meanwhile). */
  private notLatest(urn: string, set: string, batch: WriteBatch): Mutation {
    const entity = this.registry.resolveUrn(urn).entity
    return {
      kind: 'patch',
      urn,
      entityType: entity.name,
      aspect: VERSION,
      created: batch.created,
      apply: (current) => {
        if (current?.versionSet !== set) throw changed(set)
        const value = { ...current, isLatest: false }
        return { value, edges: this.registry.edges(entity, VERSION, value) }
      },
    }
  }
}

/** A version set that changed between the read and the write: the call is planned again. */
const changed = (set: string) => new HookRaceError(`The version set ${set} changed meanwhile; write again`)

/** An upsert of `versionProperties` with `isLatest` set. */
function withLatest(m: UpsertAspect, isLatest: boolean): UpsertAspect {
  if (m.value.isLatest === isLatest) return m
  const { valueJson: _text, valueUtf8: _bytes, ...rest } = m
  return { ...rest, value: { ...(m.value as Json), isLatest } }
}
