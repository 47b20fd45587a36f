import type { Registry, SearchableField, SearchFieldType } from '@catalog/core'

/** Field types searched as words (DataHub's default `queryByDefault: true`). */
const DEFAULT_QUERY_TYPES: ReadonlySet<SearchFieldType> = new Set([
  'TEXT',
  'TEXT_PARTIAL',
  'WORD_GRAM',
  'URN',
  'URN_PARTIAL',
])
/** Field types whose values are analysed into words. */
const TEXT_TYPES: ReadonlySet<SearchFieldType> = new Set(['TEXT', 'TEXT_PARTIAL', 'WORD_GRAM'])
/** Display-name fields: suggested before ids of the same boost. */
const DISPLAY = new Set(['name', 'title', 'displayName', 'fullName'])
const NUMERIC_TYPES: ReadonlySet<SearchFieldType> = new Set(['COUNT', 'DOUBLE', 'DATETIME'])

/** One index field of one entity type, the annotations of every aspect that feeds it merged. */
export interface FieldSpec {
  readonly name: string
  readonly type: SearchFieldType
  readonly boost: number
  readonly queryByDefault: boolean
  readonly addToFilters: boolean
  readonly filterName?: string
  readonly autocomplete: boolean
}

/** The search view of one entity type. */
export interface EntitySearchSpec {
  readonly name: string
  readonly fields: ReadonlyMap<string, FieldSpec>
  /** Fields searched by free text, best boost first. */
  readonly defaultFields: readonly string[]
  /** Facets: `addToFilters` fields, with their display names. */
  readonly facets: ReadonlyArray<{ readonly field: string; readonly displayName: string }>
  /** Fields offered by autocomplete, best boost first. */
  readonly autocompleteFields: readonly string[]
  /** Boolean fields set when a field has values (`hasTags`, `hasDescription`, ...). */
  readonly hasValuesFields: readonly string[]
}

/** Facet and filter name of the entity type (DataHub's virtual `_entityType`). */
export const ENTITY_TYPE_FIELD = '_entityType'
/** The soft-delete field. */
export const REMOVED_FIELD = 'removed'
/** The document's URN, filterable as a field. */
export const URN_FIELD = 'urn'

/**
 * DataHub's `ESUtils.FIELDS_TO_EXPANDED_FIELDS_LIST`: a filter (or `field:value`) on the key
 * field matches any of the listed index fields.
 */
export const FIELD_EXPANSIONS: Readonly<Record<string, readonly string[]>> = {
  tags: ['tags', 'fieldTags', 'editedFieldTags'],
  glossaryTerms: ['glossaryTerms', 'fieldGlossaryTerms', 'editedFieldGlossaryTerms'],
  fieldTags: ['fieldTags', 'editedFieldTags'],
  fieldGlossaryTerms: ['fieldGlossaryTerms', 'editedFieldGlossaryTerms'],
  fieldDescriptions: ['fieldDescriptions', 'editedFieldDescriptions'],
  description: ['description', 'editedDescription'],
  origin: ['origin', 'env'],
  env: ['env', 'origin'],
}

/**
 * Every index field, from the registry's `searchable` annotations: what the search index is
 * built from, and what requests are validated against.
 */
export class SearchSchema {
  private readonly entities = new Map<string, EntitySearchSpec>()
  private readonly global = new Map<string, FieldSpec>()
  private readonly analyzed = new Set<string>()
  private readonly textOnly = new Set<string>()
  private readonly aspects = new Map<string, Set<string>>()

  constructor(readonly registry: Registry) {
    for (const entity of registry.allEntities()) {
      const fields = new Map<string, FieldSpec>()
      const hasValues = new Set<string>()
      for (const { aspect, field } of registry.searchable(entity)) {
        fields.set(field.fieldName, merge(fields.get(field.fieldName), field))
        for (const name of [field.fieldName, field.hasValuesFieldName]) {
          if (!name) continue
          const set = this.aspects.get(name) ?? new Set<string>()
          set.add(aspect)
          this.aspects.set(name, set)
        }
        if (field.hasValuesFieldName) hasValues.add(field.hasValuesFieldName)
      }
      for (const name of hasValues) {
        if (!fields.has(name))
          fields.set(name, {
            name,
            type: 'BOOLEAN',
            boost: 1,
            queryByDefault: false,
            addToFilters: false,
            autocomplete: false,
          })
      }
      const specs = [...fields.values()]
      const byBoost = (a: FieldSpec, b: FieldSpec) => b.boost - a.boost || a.name.localeCompare(b.name)
      this.entities.set(entity.name, {
        name: entity.name,
        fields,
        defaultFields: specs
          .filter((f) => f.queryByDefault)
          .sort(byBoost)
          .map((f) => f.name),
        facets: specs
          .filter((f) => f.addToFilters)
          .map((f) => ({ field: f.name, displayName: f.filterName ?? f.name })),
        autocompleteFields: specs
          .filter((f) => f.autocomplete)
          .sort(
            (a, b) =>
              b.boost - a.boost ||
              Number(DISPLAY.has(b.name)) - Number(DISPLAY.has(a.name)) ||
              a.name.localeCompare(b.name),
          )
          .map((f) => f.name),
        hasValuesFields: [...hasValues],
      })
      for (const spec of specs) {
        if (TEXT_TYPES.has(spec.type) || spec.queryByDefault) this.analyzed.add(spec.name)
        if (spec.type === 'TEXT') this.textOnly.add(spec.name)
        const seen = this.global.get(spec.name)
        this.global.set(
          spec.name,
          seen
            ? {
                ...seen,
                boost: Math.max(seen.boost, spec.boost),
                queryByDefault: seen.queryByDefault || spec.queryByDefault,
                autocomplete: seen.autocomplete || spec.autocomplete,
              }
            : spec,
        )
      }
    }
  }

  /** The search view of `entityType`, or undefined when the registry has no such entity. */
  entity(entityType: string): EntitySearchSpec | undefined {
    return this.entities.get(entityType)
  }

  /** Every entity type. */
  allEntities(): EntitySearchSpec[] {
    return [...this.entities.values()]
  }

  /** An index field of any entity type (boost and defaults merged over entity types). */
  field(name: string): FieldSpec | undefined {
    return this.global.get(name)
  }

  /**
   * True when the index keeps the field's exact values (for filters, facets, browse and
   * sorting). Free-text fields (type TEXT: descriptions, field paths, ...) are only analysed
   * into words; an index evaluates exact conditions on them from the stored document.
   */
  isExact(name: string): boolean {
    return !this.textOnly.has(name)
  }

  /** The aspects (of any entity type) whose values feed an index field. */
  aspectsOf(field: string): string[] {
    return [...(this.aspects.get(field) ?? [])].sort()
  }

  /** Every index field name of every entity type. */
  allFields(): FieldSpec[] {
    return [...this.global.values()]
  }

  /**
   * Fields the index analyses into words: text fields, and fields searched by default (URN
   * fields give their URN's meaningful parts: `urn:li:tag:Legacy` gives `Legacy`).
   */
  wordFields(): FieldSpec[] {
    return this.allFields()
      .filter((f) => this.analyzed.has(f.name))
      .sort((a, b) => a.name.localeCompare(b.name))
  }
}

/** True for field types whose values are numbers. */
export function isNumericType(type: SearchFieldType): boolean {
  return NUMERIC_TYPES.has(type)
}

/** True for URN-valued field types. */
export function isUrnType(type: SearchFieldType): boolean {
  return type === 'URN' || type === 'URN_PARTIAL'
}

function merge(seen: FieldSpec | undefined, f: SearchableField): FieldSpec {
  const spec: FieldSpec = {
    name: f.fieldName,
    type: f.type,
    boost: f.boost ?? 1,
    queryByDefault: f.queryByDefault ?? DEFAULT_QUERY_TYPES.has(f.type),
    addToFilters: f.addToFilters === true,
    ...(f.filterName ? { filterName: f.filterName } : {}),
    autocomplete: f.autocomplete === true,
  }
  if (!seen) return spec
  const filterName = seen.filterName ?? spec.filterName
  return {
    name: seen.name,
    type: seen.type,
    boost: Math.max(seen.boost, spec.boost),
    queryByDefault: seen.queryByDefault || spec.queryByDefault,
    addToFilters: seen.addToFilters || spec.addToFilters,
    ...(filterName ? { filterName } : {}),
    autocomplete: seen.autocomplete || spec.autocomplete,
  }
}
