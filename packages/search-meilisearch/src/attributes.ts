import { isNumericType, type SearchSchema } from '@catalog/search'

/**
 * Attribute names of a Meilisearch document. Internal attributes start with `_`; registry
 * field names never do, so a field's raw values are stored under the field's own name.
 */
export const ATTR = {
  pk: '_pk',
  urn: 'urn',
  entityType: '_entityType',
  removed: '_removed',
  parts: '_parts',
  cursor: '_cursor',
  layout: '_layout',
  /** Browse nodes a document is strictly under (tokens). */
  under: '_bu',
  /** browseV2 nodes a document's `browsePathV2` is strictly under (tokens). */
  underV2: '_bv2',
} as const

/** Case-sensitive value tokens of a field (EQUAL, IN, EXISTS, facets, value lookups). */
export const exactAttr = (field: string) => `_f_${field}`
/** Case-folded keys of a field: whole value, URN keys, words (`field:value`). */
export const keyAttr = (field: string) => `_k_${field}`
/** Analysed text of a field, one string per value (free-text search). */
export const textAttr = (field: string) => `_t_${field}`
/** Browse groups of a document at a depth: children of its path's nodes of `depth` segments. */
export const childAttr = (depth: number) => `_bc${depth}`

/** Browse groups are kept as facets for parents up to this depth; deeper ones are scanned. */
export const MAX_BROWSE_DEPTH = 16

/** What the mapper and translators need to know of the registry's search fields. */
export interface FieldCatalog {
  /** The field keeps whole values (not a free-text TEXT field). */
  isExact(field: string): boolean
  /** The field's values are analysed into words (searched by free text). */
  isAnalysed(field: string): boolean
  /** The field holds numbers (COUNT, DOUBLE, DATETIME). */
  isNumeric(field: string): boolean
  /** The field is a browse path v2 (`␟a␟b`): EQUAL matches the node and every path under it. */
  isBrowsePathV2(field: string): boolean
  /** The key aspect of an entity type (its contribution merges first). */
  keyAspectOf(entityType: string): string | undefined
  /** The entity name a `_entityType` filter value means (`DATASET`, `dataset`), if any. */
  entityName(value: string): string | undefined
}

/** The {@link FieldCatalog} of a search schema. */
export function fieldCatalog(schema: SearchSchema): FieldCatalog {
  const analysed = new Set(schema.wordFields().map((f) => f.name))
  const names = new Map<string, string>()
  for (const e of schema.registry.allEntities()) {
    names.set(e.name.toLowerCase(), e.name)
    if (e.graphqlType) names.set(e.graphqlType.toLowerCase(), e.name)
  }
  return {
    isExact: (field) => schema.isExact(field),
    isAnalysed: (field) => analysed.has(field),
    isNumeric: (field) => {
      const spec = schema.field(field)
      return spec !== undefined && isNumericType(spec.type)
    },
    isBrowsePathV2: (field) => schema.field(field)?.type === 'BROWSE_PATH_V2',
    keyAspectOf: (type) => schema.registry.findEntity(type)?.keyAspect,
    entityName: (value) => names.get(value.toLowerCase()),
  }
}
