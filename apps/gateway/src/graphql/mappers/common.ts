import { parseUrn } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import { statusLifecycleStage } from './lifecycle-stage.js'
import type { FieldContext, FieldFn } from './types.js'

/** A GraphQL object as the mappers build it; fields may be functions of the field arguments. */
export type Mapped = Record<string, unknown>

/** A reference to another entity: its fields are resolved (and loaded) only when selected. */
export interface EntitySource {
  readonly urn: string
}

type Json = Record<string, unknown>

/** `v` when it is a JSON object (not null, not an array); else undefined. */
export const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
/** `v` when it is an array; else empty. */
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])
/** A string member or null. */
export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
/** A numeric member or null. */
export const num = (v: unknown): number | null => (typeof v === 'number' ? v : null)

/** DataHub's schema field URN: `urn:li:schemaField:(<dataset urn>,<field path>)`. */
export function schemaFieldUrn(datasetUrn: string, fieldPath: string): string {
  return `urn:li:schemaField:(${datasetUrn},${fieldPath})`
}

/** `value` when it is one of `symbols`, else null (a stored symbol this schema does not know). */
export function enumValue(value: unknown, symbols: readonly string[]): string | null {
  return typeof value === 'string' && symbols.includes(value) ? value : null
}

/**
 * A reference to the entity `urn` when it parses and (if given) is of one of `types`;
 * undefined otherwise, so one bad stored URN drops one element instead of failing a list.
 */
export function ref(urn: unknown, types?: readonly string[]): EntitySource | undefined {
  if (typeof urn !== 'string') return undefined
  try {
    const parsed = parseUrn(urn)
    if (types && !types.includes(parsed.entityType)) return undefined
    return { urn }
  } catch {
    return undefined
  }
}

/** The valid references of a URN list; null when the list is absent. */
export function refs(urns: unknown, types?: readonly string[]): EntitySource[] | null {
  if (!Array.isArray(urns)) return null
  return urns.map((u) => ref(u, types)).filter((r): r is EntitySource => r !== undefined)
}

/** `AuditStamp {time, actor}` from a stored AuditStamp or TimeStamp (time 0 when absent). */
export function auditStamp(v: unknown): Mapped {
  const stamp = obj(v)
  return { time: num(stamp?.time) ?? 0, actor: str(stamp?.actor) }
}

/** An optional stamp: null when absent. */
export function optionalStamp(v: unknown): Mapped | null {
  return obj(v) ? auditStamp(v) : null
}

/** `ResolvedAuditStamp` (the actor a user, resolved when selected) from a stored AuditStamp; null when absent. */
export function resolvedStamp(v: unknown): Mapped | null {
  const stamp = obj(v)
  return stamp ? { time: num(stamp.time) ?? 0, actor: ref(stamp.actor, ['corpuser']) ?? null } : null
}

/** `Embed` (`renderUrl`) from the `embed` aspect; null when absent. */
export function embed(v: AspectValue | undefined): Mapped | null {
  return v ? { renderUrl: str(v.renderUrl) } : null
}

/** The value of one aspect of `urn`, read when the field needing it is selected (large or rarely asked). */
export function lazyAspect(
  urn: string,
  aspect: string,
  map: (v: AspectValue | undefined) => unknown,
): FieldFn {
  return async (_args, ctx: FieldContext) =>
    map((await ctx.client.getEntities([urn], [aspect])).get(urn)?.aspects[aspect])
}

/** `customProperties` map as `[CustomPropertiesEntry]`. */
export function customProperties(v: unknown, associatedUrn: string): Mapped[] {
  return Object.entries(obj(v) ?? {}).map(([key, value]) => ({ key, value: str(value), associatedUrn }))
}

/** `GlobalTags` record. */
export function globalTags(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  if (!v) return null
  return {
    tags: list(v.tags)
      .map((t) => obj(t))
      .map((t) => ({ tag: ref(t?.tag, ['tag']), associatedUrn, context: str(t?.context) }))
      .filter((t) => t.tag !== undefined),
  }
}

/** `GlossaryTerms` record. */
export function glossaryTerms(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  if (!v) return null
  return {
    terms: list(v.terms)
      .map((t) => obj(t))
      .map((t) => ({
        term: ref(t?.urn, ['glossaryTerm']),
        actor: ref(t?.actor, ['corpuser']) ?? null,
        context: str(t?.context),
        associatedUrn,
      }))
      .filter((t) => t.term !== undefined),
  }
}

const OWNERSHIP_TYPES = [
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'CUSTOM',
  'DATAOWNER',
  'DEVELOPER',
  'DELEGATE',
  'PRODUCER',
  'STAKEHOLDER',
  'CONSUMER',
]

/** DataHub's system ownership type URN for a legacy ownership type symbol. */
export function systemOwnershipTypeUrn(type: string): string {
  return `urn:li:ownershipType:__system__${type.toLowerCase()}`
}

/** `Ownership` record. */
export function ownership(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  if (!v) return null
  return {
    owners: list(v.owners)
      .map((o) => obj(o))
      .map((o) => {
        const type = enumValue(o?.type, OWNERSHIP_TYPES)
        const typeUrn = str(o?.typeUrn) ?? (type ? systemOwnershipTypeUrn(type) : null)
        return {
          owner: ref(o?.owner, ['corpuser', 'corpGroup']),
          type,
          ownershipType: ref(typeUrn, ['ownershipType']) ?? null,
          associatedUrn,
        }
      })
      .filter((o) => o.owner !== undefined),
    lastModified: auditStamp(v.lastModified),
  }
}

/** `Status` record. */
export function status(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  const stage = v.lifecycleStage
  return {
    removed: v.removed === true,
    lifecycleStage: ((_args, ctx) => statusLifecycleStage(ctx.client, stage)) satisfies FieldFn,
    lifecycleLastUpdated: optionalStamp(v.lifecycleLastUpdated),
  }
}

/** `Deprecation` record (also reads the legacy `datasetDeprecation`). */
export function deprecation(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  return {
    deprecated: v.deprecated === true,
    decommissionTime: num(v.decommissionTime),
    note: str(v.note),
    actor: str(v.actor),
    replacement: ref(v.replacement) ?? null,
  }
}

/** `InstitutionalMemory` record; an element whose author is not a user is dropped. */
export function institutionalMemory(v: AspectValue | undefined, associatedUrn: string): Mapped | null {
  if (!v) return null
  return {
    elements: list(v.elements)
      .map((e) => obj(e))
      .map((e) => {
        const stamp = obj(e?.createStamp)
        return {
          url: str(e?.url),
          label: str(e?.description) ?? '',
          description: str(e?.description) ?? '',
          author: ref(stamp?.actor, ['corpuser']),
          created: auditStamp(stamp),
          updated: e?.updateStamp ? auditStamp(e.updateStamp) : null,
          settings: obj(e?.settings)
            ? { showInAssetPreview: obj(e?.settings)?.showInAssetPreview === true }
            : null,
          associatedUrn,
        }
      })
      .filter((e) => e.url !== null && e.author !== undefined),
  }
}

/** `[BrowsePath]` from `browsePaths`. */
export function browsePaths(v: AspectValue | undefined): Mapped[] | null {
  if (!v) return null
  return list(v.paths)
    .filter((p): p is string => typeof p === 'string')
    .map((p) => ({ path: p.split('/').filter((s) => s.length > 0) }))
}

/** `SubTypes` record. */
export function subTypes(v: AspectValue | undefined): Mapped | null {
  return v ? { typeNames: list(v.typeNames).filter((t) => typeof t === 'string') } : null
}

/** `VersionTag` record. */
export function versionTag(v: unknown): Mapped | null {
  const tag = obj(v)
  return tag ? { versionTag: str(tag.versionTag) } : null
}

/** `{description}` of an `editable*Properties` aspect. */
export function editableDescription(v: AspectValue | undefined): Mapped | null {
  return v ? { description: str(v.description) } : null
}

/** `SchemaFieldRef {urn: dataset, path: field}` of each `schemaField` URN; others are dropped. */
export function fieldRefs(v: unknown): Mapped[] {
  if (!Array.isArray(v)) return []
  return v.flatMap((u) => {
    try {
      const parsed = typeof u === 'string' ? parseUrn(u) : undefined
      const [urn, path] = parsed?.entityType === 'schemaField' ? parsed.parts : []
      return urn !== undefined && path !== undefined ? [{ urn, path }] : []
    } catch {
      return []
    }
  })
}

/** `[FineGrainedLineage]`, as DataHub's FineGrainedLineagesMapper; null when absent. */
export function fineGrainedLineages(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return v
    .filter((l): l is AspectValue => l !== null && typeof l === 'object')
    .map((l) => ({
      upstreams: fieldRefs(l.upstreams),
      downstreams: fieldRefs(l.downstreams),
      query: str(l.query),
      transformOperation: str(l.transformOperation),
    }))
}
