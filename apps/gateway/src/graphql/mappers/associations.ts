import { parseUrn } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import { applicationAssociations } from './application.js'
import { assertionsHealth } from './assertion.js'
import { type EntitySource, type Mapped, num, ref, refs, str } from './common.js'
import { MAPPINGS } from './index.js'
import { assetSettings } from './page-template.js'
import type { EntityMapping, FieldContext, FieldFn } from './types.js'

type Json = Record<string, unknown>

const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** Most ancestors walked up a `container` or `parentNode` chain (a cycle guard). */
const MAX_ANCESTORS = 50

/**
 * `DataPlatformInstance` from a `dataPlatformInstance` aspect or URN, as DataHub's
 * DataPlatformInstanceAspectMapper: null when the aspect names no instance.
 */
export function platformInstance(v: AspectValue | undefined): Mapped | null {
  return instanceObject(str(v?.instance))
}

function instanceObject(urn: string | null): Mapped | null {
  if (!urn) return null
  try {
    const parsed = parseUrn(urn)
    if (parsed.entityType !== 'dataPlatformInstance') return null
    const [platform, instanceId] = parsed.parts.map(String)
    return {
      __typename: 'DataPlatformInstance',
      urn,
      type: 'DATA_PLATFORM_INSTANCE',
      platform: ref(platform, ['dataPlatform']) ?? null,
      instanceId: instanceId ?? '',
    }
  } catch {
    return null
  }
}

/** Whether this GraphQL API serves the entity type of `urn` (read at call time: no import cycle at load). */
function served(urn: string): boolean {
  try {
    return MAPPINGS.has(parseUrn(urn).entityType)
  } catch {
    return false
  }
}

/** An entity the UI may select by URN: a served entity, a platform instance, or null. */
function anyEntity(urn: unknown): Mapped | EntitySource | null {
  if (typeof urn !== 'string') return null
  return instanceObject(urn) ?? (served(urn) ? { urn } : null)
}

/** `DomainAssociation` of the first domain of a `domains` aspect (DataHub keeps only one). */
export function domainAssociation(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  const domain = ref(list(v?.domains)[0], ['domain'])
  return domain ? { domain, associatedUrn } : null
}

/** The parent `Container` named by a `container` aspect. */
export function containerRef(v: AspectValue | undefined): EntitySource | null {
  return ref(v?.container, ['container']) ?? null
}

/** `BrowsePathV2` from `browsePathsV2`: each entry's id as its name, its URN as its entity. */
export function browsePathV2(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  return {
    path: list(v.path)
      .map((p) => obj(p))
      .filter((p): p is Json => typeof p?.id === 'string')
      .map((p) => ({ name: p.id, entity: anyEntity(p.urn) })),
  }
}

/** `SiblingProperties` from `siblings`. */
export function siblings(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  return {
    isPrimary: typeof v.primary === 'boolean' ? v.primary : null,
    siblings: (refs(v.siblings) ?? []).map((r) => (served(r.urn) ? r : null)),
  }
}

/** `StructuredProperties`: each property's values as `StringValue` or `NumberValue`. */
export function structuredProperties(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  if (!v) return null
  return {
    properties: list(v.properties)
      .map((p) => obj(p))
      .filter((p): p is Json => typeof p?.propertyUrn === 'string')
      .map((p) => {
        const values = list(p.values).map((x) => obj(x))
        return {
          structuredProperty: { urn: p.propertyUrn, type: 'STRUCTURED_PROPERTY' },
          values: values.map((x) =>
            typeof x?.string === 'string'
              ? { __typename: 'StringValue', stringValue: x.string }
              : typeof x?.double === 'number'
                ? { __typename: 'NumberValue', numberValue: x.double }
                : null,
          ),
          valueEntities: values
            .map((x) => (typeof x?.string === 'string' && x.string.startsWith('urn:li:') ? x.string : null))
            .map((u) => (u && served(u) ? { urn: u } : null))
            .filter((u) => u !== null),
          associatedUrn,
        }
      }),
  }
}

function prompts(v: unknown): Mapped[] {
  return list(v)
    .map((p) => obj(p))
    .filter((p): p is Json => typeof p?.id === 'string')
    .map((p) => {
      const fields = obj(p.fieldAssociations)
      return {
        id: p.id,
        lastModified: promptStamp(p.lastModified),
        fieldAssociations: fields
          ? {
              completedFieldPrompts: fieldPrompts(fields.completedFieldPrompts),
              incompleteFieldPrompts: fieldPrompts(fields.incompleteFieldPrompts),
            }
          : null,
      }
    })
}

/** A prompt's `ResolvedAuditStamp`: the time, and the actor resolved when selected. */
function promptStamp(v: unknown): Mapped {
  const stamp = obj(v)
  return { time: num(stamp?.time) ?? 0, actor: ref(stamp?.actor) ?? null }
}

/** The column answers of a column prompt (`FieldFormPromptAssociation`); null when absent. */
function fieldPrompts(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return v
    .map((f) => obj(f))
    .filter((f): f is Json => typeof f?.fieldPath === 'string')
    .map((f) => ({ fieldPath: f.fieldPath, lastModified: promptStamp(f.lastModified) }))
}

/** `Forms` from `forms`: the form associations with their prompts, and verifications. */
export function forms(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  if (!v) return null
  const associations = (x: unknown) =>
    list(x)
      .map((f) => obj(f))
      .filter((f): f is Json => ref(f?.urn, ['form']) !== undefined)
      .map((f) => ({
        form: { urn: f.urn },
        associatedUrn,
        incompletePrompts: prompts(f.incompletePrompts),
        completedPrompts: prompts(f.completedPrompts),
      }))
  return {
    incompleteForms: associations(v.incompleteForms),
    completedForms: associations(v.completedForms),
    verifications: list(v.verifications)
      .map((f) => obj(f))
      .filter((f): f is Json => typeof f?.form === 'string')
      .map((f) => {
        const stamp = obj(f.lastModified)
        return {
          form: { urn: f.form },
          lastModified: stamp ? { time: num(stamp.time) ?? 0, actor: ref(stamp.actor) ?? null } : null,
        }
      }),
  }
}

/**
 * An ancestor chain as a field: from `first`, each entity's parent by `parentOf` on its
 * loaded aspects, nearest first (DataHub's ParentContainersResolver and ParentNodesResolver).
 */
export function ancestors(
  first: EntitySource | null,
  parentOf: (a: Record<string, AspectValue>) => unknown,
): FieldFn {
  return async (_args, ctx) => {
    const out: EntitySource[] = []
    const seen = new Set<string>()
    let next = first
    while (next && !seen.has(next.urn) && out.length < MAX_ANCESTORS) {
      seen.add(next.urn)
      out.push(next)
      const loaded = await ctx.graph.loader.load(next.urn)
      const parent = parentOf(loaded.aspects)
      next = typeof parent === 'string' ? { urn: parent } : null
    }
    return out
  }
}

/**
 * `health`, as DataHub's EntityHealthResolver: one entry per kind of signal (active incidents,
 * assertion results) the entity has, so none is `[]`: the incidents entry first (see
 * {@link incidentsHealth}), then the assertions entry (see {@link assertionsHealth}).
 */
function health(urn: string, summary: AspectValue | undefined): FieldFn {
  return async (_args, ctx) => {
    const [incidents, assertions] = await Promise.all([
      incidentsHealth(summary, ctx),
      assertionsHealth(urn, ctx),
    ])
    return [incidents, assertions].filter((h) => h !== null)
  }
}

/**
 * The incidents entry of `health`, as DataHub's EntityHealthResolver words it, from the entity's
 * `incidentsSummary` (its active incidents, and the deprecated `activeIncidents` list): FAIL,
 * "1 active incident" / "N active incidents", with the latest-updated incident's URN, title and
 * time; none without active incidents.
 */
async function incidentsHealth(summary: AspectValue | undefined, ctx: FieldContext): Promise<Mapped | null> {
  const urns = [
    ...new Set(
      [
        ...list(summary?.activeIncidentDetails).map((d) => obj(d)?.urn),
        ...list(summary?.activeIncidents),
      ].filter((u): u is string => typeof u === 'string'),
    ),
  ]
  if (urns.length === 0) return null
  const infos = await ctx.client.getEntities(urns, ['incidentInfo'])
  let latest: { urn: string; title: string | null; time: number } | undefined
  for (const incident of urns) {
    const info = infos.get(incident)?.aspects.incidentInfo
    const time = num(obj(obj(info?.status)?.lastUpdated)?.time) ?? 0
    if (!latest || time > latest.time) latest = { urn: incident, title: str(info?.title), time }
  }
  const count = urns.length
  return {
    type: 'INCIDENTS',
    status: 'FAIL',
    message: `${count} active incident${count > 1 ? 's' : ''}`,
    causes: ['ACTIVE_INCIDENTS'],
    reportedAt: latest?.time ?? 0,
    activeIncidentHealthDetails: {
      latestIncidentUrn: latest?.urn ?? null,
      latestIncidentTitle: latest?.title ?? null,
      lastActivityAt: latest?.time ?? null,
      count,
    },
  }
}

/** A `{count, <name>}` result of walking a parent chain from `first` by `aspect.member` (ParentNodesResolver, ParentDomainsResolver). */
export function parents(name: string, first: unknown, aspect: string, member: string): FieldFn {
  const walk = ancestors(typeof first === 'string' ? { urn: first } : null, (a) => obj(a[aspect])?.[member])
  return async (args, ctx) => {
    const found = (await walk(args, ctx)) as unknown[]
    return { count: found.length, [name]: found }
  }
}

/** `parentContainers`: the chain of containers from `first`, nearest first. */
function parentContainers(first: EntitySource | null): FieldFn {
  return async (args, ctx) => {
    const containers = (await ancestors(first, (p) => obj(p.container)?.container)(args, ctx)) as unknown[]
    return { count: containers.length, containers }
  }
}

/** `lastIngested`, read when selected: when ingestion last wrote the entity (null when it never did). */
const lastIngested =
  (urn: string): FieldFn =>
  (_args, ctx) =>
    ctx.client.lastIngested(urn)

/** The aspects {@link withContext} reads (an entity type without one of them skips it). */
const CONTEXT_ASPECTS = [
  'domains',
  'container',
  'siblings',
  'dataPlatformInstance',
  'browsePathsV2',
  'structuredProperties',
  'forms',
  'incidentsSummary',
  'applications',
  'assetSettings',
]

/**
 * A mapping plus the fields many entity types share: `domain`, `container`,
 * `parentContainers`, `siblings`, `dataPlatformInstance`, `browsePathV2`,
 * `structuredProperties`, `forms`, `applications` and the asset summary `settings`. A field a type
 * does not declare is never read.
 */
export function withContext(mapping: EntityMapping): EntityMapping {
  return {
    ...mapping,
    aspects: [...new Set([...mapping.aspects, ...CONTEXT_ASPECTS])],
    // The type's own fields win; the shared ones are added to its object (no copy of it).
    map: (e) => {
      const a = e.aspects
      const own = mapping.map(e)
      const container = containerRef(a.container)
      if (!('domain' in own)) own.domain = domainAssociation(a.domains, e.urn)
      if (!('container' in own)) own.container = container
      if (!('parentContainers' in own)) own.parentContainers = parentContainers(container)
      if (!('siblings' in own)) own.siblings = siblings(a.siblings)
      if (!('dataPlatformInstance' in own))
        own.dataPlatformInstance = platformInstance(a.dataPlatformInstance)
      if (!('browsePathV2' in own)) own.browsePathV2 = browsePathV2(a.browsePathsV2)
      if (!('structuredProperties' in own))
        own.structuredProperties = structuredProperties(a.structuredProperties, e.urn)
      if (!('forms' in own)) own.forms = forms(a.forms, e.urn)
      if (!('health' in own)) own.health = health(e.urn, a.incidentsSummary)
      if (!('lastIngested' in own)) own.lastIngested = lastIngested(e.urn)
      if (!('settings' in own)) own.settings = assetSettings(a.assetSettings)
      if (!('applications' in own)) {
        const applications = applicationAssociations(a.applications, e.urn)
        own.applications = applications
        // DataHub's deprecated single `application`: the first.
        own.application = applications?.[0] ?? null
      }
      return own
    },
  }
}
