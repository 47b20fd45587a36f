import type { EntitySpec, Registry } from '@catalog/core'
import type {
  EntityDefaults,
  MetadataStore,
  Mutation,
  PatchAspect,
  UpsertAspect,
  WriteBatch,
} from '@catalog/store'
import { LazyDefaults } from './lazy-defaults.js'
import { appended, type WriteHook, type WritePlan } from './write-hooks.js'

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
type After = { readonly known: true; readonly info: Json | undefined } | { readonly known: false }

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
 * An upserted value is known when the batch is built: its summary updates join the batch and
 * are written atomically with it. A patched or rolled-back value is known only once written: the
 * summaries are then brought up to date by a second write before the call is answered.
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
    for (const [urn, state] of after) {
      if (state.known) known.set(urn, state.info)
      else later.push(urn)
    }
    const planned = known.size > 0 ? appended(batch, await this.updates(known, batch)) : batch
    return later.length > 0
      ? { batch: planned, after: () => this.reconcile(later, batch.created) }
      : { batch: planned }
  }

  /** The summary updates of `incidents` from their stored `incidentInfo` (after a patch or rollback); undefined when none. */
  private async reconcile(
    incidents: readonly string[],
    created: WriteBatch['created'],
  ): Promise<WriteBatch | undefined> {
    const stored = await this.store.latest(incidents, [INFO])
    const infos = new Map(
      incidents.map((urn) => [
        urn,
        stored.get(urn)?.find((a) => a.aspect === INFO)?.value as Json | undefined,
      ]),
    )
    const extra = await this.updates(infos, { mutations: [], created })
    return extra.mutations.length > 0
      ? { mutations: extra.mutations, defaults: extra.defaults, created }
      : undefined
  }

  /**
   * One patch of `incidentsSummary` per incident and entity to update: the entities each incident
   * is raised on now, and those whose summary lists it already (found by their summary's edges).
   */
  private async updates(
    infos: ReadonlyMap<string, Json | undefined>,
    batch: WriteBatch,
  ): Promise<{ mutations: Mutation[]; defaults: EntityDefaults[] }> {
    const mutations: Mutation[] = []
    const defaults = new Map<string, EntityDefaults>()
    const hasDefaults = new Set((batch.defaults ?? []).map((d) => d.urn))
    const listing = await Promise.all(
      [...infos.keys()].map((urn) =>
        this.store.relationships({
          urn,
          direction: 'INCOMING',
          types: SUMMARY_EDGES,
          start: 0,
          count: MAX_LISTING,
        }),
      ),
    )
    let i = 0
    for (const [incident, info] of infos) {
      const raisedOn = new Set(list(info?.entities).filter((u): u is string => typeof u === 'string'))
      const details = info ? summaryDetails(incident, info) : undefined
      const targets = new Set([...raisedOn, ...(listing[i++]?.relationships.map((r) => r.entity) ?? [])])
      for (const target of targets) {
        const entity = this.summarized(target)
        if (!entity) continue
        const listed = details && raisedOn.has(target) ? details : undefined
        mutations.push(this.summaryPatch(target, entity, incident, listed, batch.created))
        if (!hasDefaults.has(target) && !defaults.has(target)) {
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

/** An upsert the store skips when something is there already (`If-None-Match: *`): it leaves what was there. */
function mayBeDropped(m: UpsertAspect): boolean {
  const p = m.precondition
  return p !== undefined && p.require !== 'latest-unchanged' && p.drop === true
}

/** Each incident whose `incidentInfo` the mutations write, with what it is after them (the last write wins). */
function incidentsAfter(mutations: readonly Mutation[]): Map<string, After> {
  const after = new Map<string, After>()
  for (const m of mutations) {
    if (m.kind === 'timeseries' || m.entityType !== INCIDENT) continue
    const key = m.kind === 'delete' || m.kind === 'rollback' ? m.isKeyAspect : false
    if (m.aspect !== INFO && !key) continue
    if (m.kind === 'delete') after.set(m.urn, { known: true, info: undefined })
    else if (m.kind === 'upsert' && !mayBeDropped(m)) after.set(m.urn, { known: true, info: m.value })
    else after.set(m.urn, { known: false })
  }
  return after
}
