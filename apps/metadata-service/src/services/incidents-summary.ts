import { canonicalJson, type EntitySpec, type Registry } from '@catalog/core'
import type { EntityDefaults, MetadataStore, Mutation, PatchAspect, WriteBatch } from '@catalog/store'
import { LazyDefaults } from './lazy-defaults.js'
import { appended, HookRaceError, mayBeDropped, type WriteHook, type WritePlan } from './write-hooks.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

const INCIDENT = 'incident'
const INFO = 'incidentInfo'
const SUMMARY = 'incidentsSummary'
/** DataHub's `incidents.hook.maxIncidentHistory` default: incidents one summary list keeps. */
const MAX_INCIDENT_HISTORY = 100
/** The relationships an `incidentsSummary` has to the incidents it lists. */
const SUMMARY_EDGES = ['ActiveIncidents', 'ResolvedIncidents']
/** Most summaries listing one incident that are read to be updated (far above any real incident). */
const MAX_LISTING = 10_000

/** An incident's `incidentInfo` after a batch: known (undefined when it is gone), or only known once written. */
type After =
  | { readonly known: true; readonly info: Json | undefined }
  | { readonly known: false; readonly patchAt?: number }

/**
 * DataHub's IncidentsSummaryHook, kept in the write itself: every write of an incident's
 * `incidentInfo` updates the `incidentsSummary` of the entities it is raised on (the summary the
 * entity's health, search filters and incident counts read). The incident goes to the active or
 * the resolved list by its state (out of the other), with its type, priority and times; each
 * list keeps the newest {@link MAX_INCIDENT_HISTORY} by creation. Entities the incident no longer
 * names, and every entity listing a deleted incident, have it removed (DataHub leaves both to
 * `deleteReferences`). A summary written to an entity that does not exist creates it, as
 * DataHub's summary write does.
 *
 * An upserted value is known when the batch is built, and a patch is applied ahead to the value
 * read (and guarded to apply to that value only): their summary updates join the batch and are
 * written atomically with it. A rolled-back value is known only once written: the summaries are
 * then brought up to date by a second write before the call is answered.
 */
export class IncidentSummaries implements WriteHook {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {}

  /**
   * The summary updates `batch` calls for; the batch itself when it writes no incident. Incidents
   * whose new `incidentInfo` is only known once written (patches, rollbacks) are reconciled after.
   */
  async plan(batch: WriteBatch): Promise<WritePlan> {
    const after = incidentsAfter(batch.mutations)
    if (after.size === 0) return { batch }
    const known = new Map<string, Json | undefined>()
    const later: string[] = []
    const patched: Array<[string, number]> = []
    for (const [urn, state] of after) {
      if (state.known) known.set(urn, state.info)
      else if (state.patchAt !== undefined) patched.push([urn, state.patchAt])
      else later.push(urn)
    }
    const mutations: Mutation[] = [...batch.mutations]
    if (patched.length > 0) {
      const stored = await this.store.latest(
        patched.map(([urn]) => urn),
        [INFO],
      )
      for (const [urn, at] of patched) {
        const current = stored.get(urn)?.find((a) => a.aspect === INFO)?.value
        const guarded = predicted(mutations[at] as PatchAspect, current)
        if (!guarded) continue // a patch that does not apply: the write refuses it
        mutations[at] = guarded.mutation
        known.set(urn, guarded.value)
      }
    }
    const base = patched.length > 0 ? { ...batch, mutations } : batch
    const planned = known.size > 0 ? appended(base, await this.updates(known, batch)) : base
    if (later.length === 0) return { batch: planned }
    // A rolled-back incident may take its summaries' edges with it: they are read before.
    const before = await this.listings(later)
    return { batch: planned, after: () => this.reconcile(later, before, batch.created) }
  }

  /** The summary updates of `incidents` from their stored `incidentInfo` (after a rollback); undefined when none. */
  private async reconcile(
    incidents: readonly string[],
    before: ReadonlyMap<string, readonly string[]>,
    created: WriteBatch['created'],
  ): Promise<WriteBatch | undefined> {
    const stored = await this.store.latest(incidents, [INFO])
    const infos = new Map(
      incidents.map((urn) => [
        urn,
        stored.get(urn)?.find((a) => a.aspect === INFO)?.value as Json | undefined,
      ]),
    )
    const extra = await this.updates(infos, { mutations: [], created }, before)
    return extra.mutations.length > 0
      ? { mutations: extra.mutations, defaults: extra.defaults, created }
      : undefined
  }

  /** The entities whose summaries list each incident now (their summary's edges to it). */
  private async listings(incidents: readonly string[]): Promise<Map<string, string[]>> {
    const pages = await Promise.all(
      incidents.map((urn) =>
        this.store.relationships({
          urn,
          direction: 'INCOMING',
          types: SUMMARY_EDGES,
          start: 0,
          count: MAX_LISTING,
        }),
      ),
    )
    return new Map(incidents.map((urn, i) => [urn, pages[i]?.relationships.map((r) => r.entity) ?? []]))
  }

  /**
   * One patch of `incidentsSummary` per incident and entity to update: the entities each incident
   * is raised on now, and those whose summary lists it already (found by their summary's edges).
   */
  private async updates(
    infos: ReadonlyMap<string, Json | undefined>,
    batch: WriteBatch,
    before: ReadonlyMap<string, readonly string[]> = new Map(),
  ): Promise<{ mutations: Mutation[]; defaults: EntityDefaults[] }> {
    const mutations: Mutation[] = []
    const defaults = new Map<string, EntityDefaults>()
    const listing = await this.listings([...infos.keys()])
    for (const [incident, info] of infos) {
      const raisedOn = new Set(list(info?.entities).filter((u): u is string => typeof u === 'string'))
      const details = info ? summaryDetails(incident, info) : undefined
      const targets = new Set([
        ...raisedOn,
        ...(listing.get(incident) ?? []),
        ...(before.get(incident) ?? []),
      ])
      for (const target of targets) {
        const entity = this.summarized(target)
        if (!entity) continue
        const listed = details && raisedOn.has(target) ? details : undefined
        mutations.push(this.summaryPatch(target, entity, incident, listed, batch.created))
        if (!defaults.has(target)) {
          defaults.set(target, new LazyDefaults(this.registry, this.registry.resolveUrn(target), entity))
        }
      }
    }
    return { mutations, defaults: [...defaults.values()] }
  }

  /** The entity type of `urn` when it has an `incidentsSummary` (datasets, charts, jobs...); else undefined. */
  private summarized(urn: string): EntitySpec | undefined {
    try {
      const { entity } = this.registry.resolveUrn(urn)
      return this.registry.hasAspect(entity, SUMMARY) ? entity : undefined
    } catch {
      return undefined
    }
  }

  /** A patch of `target`'s summary: `incident` out of both lists, then into the list of `details` (if any). */
  private summaryPatch(
    target: string,
    entity: EntitySpec,
    incident: string,
    details: IncidentDetails | undefined,
    created: WriteBatch['created'],
  ): PatchAspect {
    const registry = this.registry
    const spec = registry.aspect(entity, SUMMARY)
    return {
      kind: 'patch',
      urn: target,
      entityType: entity.name,
      aspect: SUMMARY,
      created,
      apply: (current) => {
        const value = registry.validateAspect(spec, withIncident(current, incident, details))
        return { value, edges: registry.edges(entity, SUMMARY, value) }
      },
    }
  }
}

/** DataHub's `IncidentSummaryDetails` of one incident, and the list it belongs to. */
interface IncidentDetails {
  readonly list: 'activeIncidentDetails' | 'resolvedIncidentDetails'
  readonly value: Json
}

/**
 * DataHub's `buildIncidentSummaryDetails`: the incident's URN, its type (the custom type of a
 * CUSTOM incident), creation time, priority, and resolution time when resolved; undefined for a
 * state that is neither ACTIVE nor RESOLVED (DataHub lists it nowhere).
 */
function summaryDetails(urn: string, info: Json): IncidentDetails | undefined {
  const status = obj(info.status)
  const state = status?.state
  if (state !== 'ACTIVE' && state !== 'RESOLVED') return undefined
  const type = info.type === 'CUSTOM' && typeof info.customType === 'string' ? info.customType : info.type
  const value: Json = {
    urn,
    type: typeof type === 'string' ? type : 'CUSTOM',
    createdAt: typeof obj(info.created)?.time === 'number' ? obj(info.created)?.time : 0,
  }
  if (typeof info.priority === 'number') value.priority = info.priority
  const resolvedAt = obj(status?.lastUpdated)?.time
  if (state === 'RESOLVED' && typeof resolvedAt === 'number') value.resolvedAt = resolvedAt
  return { list: state === 'ACTIVE' ? 'activeIncidentDetails' : 'resolvedIncidentDetails', value }
}

/**
 * A summary with `incident` removed from its four lists (the two deprecated URN lists too), then
 * added to the list of `details`, oldest entries by creation dropped past the history limit.
 */
function withIncident(
  current: Json | undefined,
  incident: string,
  details: IncidentDetails | undefined,
): Json {
  const out: Json = { ...(current ?? {}) }
  for (const name of ['activeIncidents', 'resolvedIncidents']) {
    if (Array.isArray(out[name])) out[name] = (out[name] as unknown[]).filter((u) => u !== incident)
  }
  for (const name of ['activeIncidentDetails', 'resolvedIncidentDetails']) {
    out[name] = list(out[name]).filter((d) => obj(d)?.urn !== incident)
  }
  if (!details) return out
  const kept = (out[details.list] as unknown[])
    .map((d, at) => ({ d, at, createdAt: Number(obj(d)?.createdAt ?? 0) }))
    .sort((a, b) => a.createdAt - b.createdAt || a.at - b.at)
    .slice(-(MAX_INCIDENT_HISTORY - 1))
    .map((x) => x.d)
  out[details.list] = [...kept, details.value]
  return out
}

/**
 * A patch of an incident's info, applied ahead to the value read before the write (`apply` is
 * pure: the port allows calling it more than once), and guarded to apply only to that same value,
 * so that the summaries written with it follow from its result. Undefined when it does not apply.
 */
function predicted(
  m: PatchAspect,
  current: Json | undefined,
): { mutation: PatchAspect; value: Json } | undefined {
  let value: Json
  try {
    value = m.apply(current).value
  } catch {
    return undefined
  }
  const read = current === undefined ? undefined : canonicalJson(current)
  const mutation: PatchAspect = {
    ...m,
    apply: (now) => {
      if ((now === undefined ? undefined : canonicalJson(now)) !== read) {
        throw new HookRaceError(`The incident ${m.urn} changed meanwhile; write again`)
      }
      return m.apply(now)
    },
  }
  return { mutation, value }
}

/** Each incident whose `incidentInfo` the mutations write, with what it is after them (the last write wins). */
function incidentsAfter(mutations: readonly Mutation[]): Map<string, After> {
  const after = new Map<string, After>()
  for (const [at, m] of mutations.entries()) {
    if (m.kind === 'timeseries' || m.entityType !== INCIDENT) continue
    const key = m.kind === 'delete' || m.kind === 'rollback' ? m.isKeyAspect : false
    if (m.aspect !== INFO && !key) continue
    if (m.kind === 'delete') after.set(m.urn, { known: true, info: undefined })
    else if (m.kind === 'upsert' && !mayBeDropped(m)) after.set(m.urn, { known: true, info: m.value })
    else if (m.kind === 'patch') after.set(m.urn, { known: false, patchAt: at })
    else after.set(m.urn, { known: false })
  }
  return after
}
