import type { ChangeLogEntry, EntitySpec, SearchableField, SearchFieldType } from '@catalog/core'
import { browsePathV2Value } from './browse-path-v2.js'
import { pathValues } from './path-values.js'
import type { DocumentFields, FieldValue, IndexChange } from './port.js'
import { isNumericType, type SearchSchema } from './search-schema.js'

/**
 * Turns change-log entries into index changes: each aspect value becomes that aspect's
 * contribution to the entity's search document, read through the registry's `searchable`
 * annotations (key-aspect fields come from the URN's key members).
 */
export class DocumentDeriver {
  private readonly bindings = new Map<string, Map<string, Binding[]>>()

  constructor(private readonly schema: SearchSchema) {
    for (const entity of schema.registry.allEntities()) {
      const byAspect = new Map<string, Binding[]>()
      for (const b of schema.registry.searchable(entity)) {
        const list = byAspect.get(b.aspect) ?? []
        list.push({ field: b.field, segments: b.field.path.length === 0 ? [] : b.field.path.split('/') })
        byAspect.set(b.aspect, list)
      }
      this.bindings.set(entity.name, byAspect)
    }
  }

  /**
   * The index changes of a run of entries, in order. Entries of unknown entity types are
   * skipped. Each upserted entity also gets its key contribution (derived from its URN), so a
   * document is complete even when its key aspect was announced before the index existed.
   */
  changes(entries: readonly ChangeLogEntry[]): IndexChange[] {
    const out: IndexChange[] = []
    const keyed = new Set<string>()
    for (const e of entries) {
      const entity = this.schema.registry.findEntity(e.entityType)
      if (!entity) continue
      if (e.change === 'DELETE') {
        if (e.entityDeleted || e.aspect === entity.keyAspect) {
          out.push({ kind: 'removeEntity', urn: e.urn })
          keyed.delete(e.urn)
        } else out.push({ kind: 'removeAspect', urn: e.urn, aspect: e.aspect })
        continue
      }
      if (!keyed.has(e.urn)) {
        keyed.add(e.urn)
        out.push({
          kind: 'upsert',
          urn: e.urn,
          entityType: entity.name,
          aspect: entity.keyAspect,
          fields: this.contribution(entity, entity.keyAspect, this.keyValue(entity, e)),
        })
      }
      if (e.aspect === entity.keyAspect) continue
      if (!this.schema.registry.hasAspect(entity, e.aspect)) continue
      out.push({
        kind: 'upsert',
        urn: e.urn,
        entityType: entity.name,
        aspect: e.aspect,
        fields: this.contribution(entity, e.aspect, e.value ?? {}),
      })
    }
    return out
  }

  /** What one aspect value contributes to its entity's document. */
  contribution(entity: EntitySpec, aspect: string, value: unknown): DocumentFields {
    // Distinct values per field in first-seen order; a Set keeps 20,000 tags linear.
    const sets = new Map<string, Set<FieldValue>>()
    const has = new Map<string, boolean>()
    for (const { field, segments } of this.bindings.get(entity.name)?.get(aspect) ?? []) {
      let set = sets.get(field.fieldName)
      for (const leaf of pathValues(value, segments)) {
        const v = convert(leaf, field.type)
        if (v === undefined) continue
        if (!set) {
          set = new Set()
          sets.set(field.fieldName, set)
        }
        set.add(v)
      }
      if (field.hasValuesFieldName) {
        const any = (sets.get(field.fieldName)?.size ?? 0) > 0
        has.set(field.hasValuesFieldName, has.get(field.hasValuesFieldName) === true || any)
      }
    }
    const fields: Record<string, FieldValue[]> = {}
    for (const [name, set] of sets) fields[name] = [...set]
    for (const [name, any] of has) fields[name] = [any]
    joinBrowsePathsV2(fields, this.bindings.get(entity.name)?.get(aspect), value)
    return fields
  }

  private keyValue(entity: EntitySpec, e: ChangeLogEntry): Record<string, unknown> {
    try {
      return { ...this.schema.registry.resolveUrn(e.urn).key }
    } catch {
      return e.aspect === entity.keyAspect ? (e.value ?? {}) : {}
    }
  }
}

/** A searchable field of an aspect, with its path split once. */
interface Binding {
  readonly field: SearchableField
  readonly segments: readonly string[]
}

function convert(leaf: unknown, type: SearchFieldType): FieldValue | undefined {
  if (leaf === null || leaf === undefined || typeof leaf === 'object') return undefined
  if (type === 'BOOLEAN') {
    if (typeof leaf === 'boolean') return leaf
    if (leaf === 'true' || leaf === 'false') return leaf === 'true'
    return undefined
  }
  if (isNumericType(type)) {
    const n = typeof leaf === 'number' ? leaf : Number(leaf)
    return Number.isFinite(n) ? n : undefined
  }
  const s = String(leaf)
  return s === '' ? undefined : s
}

/**
 * A `BROWSE_PATH_V2` field holds one value, its path's ids joined in order (duplicates kept),
 * as DataHub indexes `browsePathV2`, so browseV2 can match it by prefix.
 */
function joinBrowsePathsV2(
  fields: Record<string, FieldValue[]>,
  bindings: readonly Binding[] | undefined,
  value: unknown,
): void {
  for (const { field, segments } of bindings ?? []) {
    if (field.type !== 'BROWSE_PATH_V2') continue
    const ids = pathValues(value, segments).filter((id): id is string => typeof id === 'string')
    const joined = browsePathV2Value(ids)
    if (joined === undefined) delete fields[field.fieldName]
    else fields[field.fieldName] = [joined]
  }
}
