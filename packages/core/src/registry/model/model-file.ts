/**
 * The format of `datahub-model.json`: DataHub's wire model as this catalog reads it. It is
 * derived from DataHub's own model facts by `packages/core/scripts/derive-model.ts`; nothing in
 * it is written by hand. Annotations are resolved at derive time into flat per-aspect lists
 * whose paths walk an aspect value (`owners/*\/owner`), so the runtime never walks PDL
 * annotations itself.
 */
import type { SearchFieldType } from '../types.js'

/**
 * A type expression: a primitive name, a named type's fully qualified name, or a
 * collection. Map keys are always strings.
 */
export type ModelTypeExpr =
  | string
  | { readonly array: ModelTypeExpr }
  | { readonly map: ModelTypeExpr }
  | { readonly union: readonly ModelUnionMember[] }

/** A union member and the key that names it on the wire (`{"<key>": value}`). */
export interface ModelUnionMember {
  readonly key: string
  readonly type: ModelTypeExpr
}

/** One record field; `optional` is set for PDL `optional` fields and fields with a default. */
export interface ModelField {
  readonly name: string
  readonly type: ModelTypeExpr
  readonly optional?: true
  /** The PDL default, when there is one (not written into stored values, as in DataHub). */
  readonly default?: unknown
}

/** A named type. Records carry their included records' fields first, already flattened. */
export type ModelTypeDecl =
  | { readonly kind: 'record'; readonly fields: readonly ModelField[] }
  | { readonly kind: 'enum'; readonly symbols: readonly string[] }
  | {
      readonly kind: 'typeref'
      readonly ref: ModelTypeExpr
      readonly urn?: true
      readonly entityType?: string
    }
  | { readonly kind: 'fixed'; readonly size: number }

/** A `@Searchable` annotation, resolved to a path from the aspect root. */
export interface ModelSearchable {
  readonly path: string
  readonly fieldName: string
  readonly fieldType: SearchFieldType
  readonly queryByDefault?: boolean
  readonly enableAutocomplete?: true
  readonly addToFilters?: true
  readonly filterNameOverride?: string
  readonly boostScore?: number
  readonly hasValuesFieldName?: string
  readonly numValuesFieldName?: string
  readonly fieldNameAliases?: readonly string[]
}

/** A `@Relationship` annotation, resolved to a path from the aspect root. */
export interface ModelRelationship {
  readonly path: string
  readonly name: string
  readonly entityTypes: readonly string[]
  readonly isLineage?: true
  /** Absent means true, as in DataHub. */
  readonly isUpstream?: false
}

/** A `@UrnValidation` annotation: URNs at `path` must be of one of `entityTypes`. */
export interface ModelUrnValidation {
  readonly path: string
  readonly entityTypes: readonly string[]
  readonly strict: boolean
  readonly exist: boolean
}

/** A `@TimeseriesField` (or the key of a `@TimeseriesFieldCollection`), by path. */
export interface ModelTimeseriesField {
  readonly path: string
  /** Set for a collection: the member that keys each element. */
  readonly collectionKey?: string
}

/** One aspect: its record and the annotations found below it. */
export interface ModelAspect {
  readonly record: string
  readonly timeseries?: true
  readonly searchable?: readonly ModelSearchable[]
  readonly relationships?: readonly ModelRelationship[]
  readonly urnValidation?: readonly ModelUrnValidation[]
  readonly timeseriesFields?: readonly ModelTimeseriesField[]
}

/** One URN tuple member of an entity key. */
export interface ModelKeyField {
  readonly name: string
  /** `string`, `urn`, or `enum`. */
  readonly kind: 'string' | 'urn' | 'enum'
  /** For `urn` members whose entity type DataHub's typed URN fixes (a dataset's platform). */
  readonly entityType?: string
  /** For `enum` members (FabricType). */
  readonly symbols?: readonly string[]
}

/** One entity type, aspects in DataHub's registry order. */
export interface ModelEntity {
  readonly name: string
  readonly category?: string
  readonly searchGroup?: string
  readonly keyAspect: string
  readonly keyFields: readonly ModelKeyField[]
  readonly aspects: readonly string[]
}

/** The whole file. */
export interface ModelFile {
  readonly source: {
    readonly repo: string
    readonly commit: string
    readonly date: string
    readonly license: string
    readonly derivedBy: string
  }
  readonly entities: readonly ModelEntity[]
  readonly aspects: Readonly<Record<string, ModelAspect>>
  readonly types: Readonly<Record<string, ModelTypeDecl>>
}
