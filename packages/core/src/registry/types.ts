/** Index field types, as DataHub's `@Searchable` fieldType. */
export type SearchFieldType =
  | 'TEXT'
  | 'TEXT_PARTIAL'
  | 'WORD_GRAM'
  | 'KEYWORD'
  | 'URN'
  | 'URN_PARTIAL'
  | 'BOOLEAN'
  | 'COUNT'
  | 'DOUBLE'
  | 'DATETIME'
  | 'BROWSE_PATH'
  | 'BROWSE_PATH_V2'
  | 'MAP_ARRAY'

/**
 * A `@Searchable` annotation: which values of an aspect become which search-document field.
 * `path` walks the aspect value: segments are property names, `*` walks every array
 * element or map value (`owners/*\/owner`).
 */
export interface SearchableField {
  readonly path: string
  /** Index field name (`owners`, `fieldPaths`, ...). */
  readonly fieldName: string
  readonly type: SearchFieldType
  /** Part of free-text search without a `field:` prefix. Default: true for text-like and URN types. */
  readonly queryByDefault?: boolean
  /** Relevance weight of a match in this field. Default 1. */
  readonly boost?: number
  /** Offered as a facet (DataHub `addToFilters`). */
  readonly addToFilters?: boolean
  /** Facet display name (DataHub `filterNameOverride`). */
  readonly filterName?: string
  /** Used for autocomplete suggestions. */
  readonly autocomplete?: boolean
  /** Name of a boolean field set when this field has any value (DataHub `hasValuesFieldName`). */
  readonly hasValuesFieldName?: string
}

/** A `@Relationship` annotation: every URN at `path` becomes an edge `owner -[name]-> urn`. */
export interface RelationshipField {
  readonly path: string
  readonly name: string
  /** Entity types the destination may have. */
  readonly entityTypes: readonly string[]
  /** A lineage edge, followed by multi-hop lineage. */
  readonly isLineage?: boolean
  /**
   * For lineage edges: true when the destination is upstream of the source (the default,
   * as for `DownstreamOf`), false when it is downstream (as for `Produces`).
   */
  readonly isUpstream?: boolean
}

/** A `@UrnValidation` annotation: URNs at `path` must be of one of `entityTypes`. */
export interface UrnValidationField {
  readonly path: string
  readonly entityTypes: readonly string[]
}

/** A `@TimeseriesField`: a path of a time-series aspect usable in filters. */
export interface TimeseriesFieldSpec {
  /** Dotted path (`userCounts.count`), as time-series filters name fields. */
  readonly name: string
  /** Set for a `@TimeseriesFieldCollection`: the member keying each element. */
  readonly collectionKey?: string
}

/** One aspect: its name, Pegasus record name and annotations, from DataHub's model. */
export interface AspectSpec {
  readonly name: string
  /** Fully qualified Pegasus record name, `com.linkedin.<area>.<Record>`. */
  readonly record: string
  /** Time-series aspects are stored apart, append-only, keyed by `timestampMillis`. */
  readonly timeseries?: boolean
  readonly searchable?: readonly SearchableField[]
  readonly relationships?: readonly RelationshipField[]
  readonly urnValidation?: readonly UrnValidationField[]
  readonly timeseriesFields?: readonly TimeseriesFieldSpec[]
  /**
   * A check beyond the schema, run after it passes (e.g. a test definition's language);
   * throws a ValidationError.
   */
  readonly check?: (value: Record<string, unknown>, registry: AspectCheckLookup) => void
}

/** What an aspect's `check` may ask of the registry. */
export interface AspectCheckLookup {
  findEntity(name: string): EntitySpec | undefined
  hasAspect(entity: EntitySpec, aspectName: string): boolean
}

/** One member of an entity key: a URN tuple member. */
export interface KeyFieldSpec {
  readonly name: string
  /** When set, the member must be a URN of this entity type (`dataPlatform` for datasets). */
  readonly urnOf?: string
  /** When set, the member must be one of these values (FabricType for `origin`). */
  readonly enum?: readonly string[]
}

/** One entity type: URN shape, key aspect, allowed aspects and browse-path default. */
export interface EntitySpec {
  readonly name: string
  /** DataHub's registry category (`core`, `internal`). */
  readonly category?: string
  readonly keyAspect: string
  /** Key members in URN tuple order. */
  readonly keyFields: readonly KeyFieldSpec[]
  /** Snapshot record name for legacy MCE ingest and reads, when the entity has one. */
  readonly snapshot?: string
  /** Aspect names besides the key aspect. */
  readonly aspects: readonly string[]
  /** GraphQL EntityType enum value. */
  readonly graphqlType?: string
  /** Default `browsePaths` written with the first aspect of a new entity (DataHub's DefaultAspectsUtil). */
  readonly defaultBrowsePath?: (key: Readonly<Record<string, string>>) => string
  /** Searchable fields of the key aspect (id, platform, origin, ...). */
  readonly keySearchable?: readonly SearchableField[]
  /** Relationships of the key aspect (dataJob -> dataFlow IsPartOf, ...). */
  readonly keyRelationships?: readonly RelationshipField[]
}
