/**
 * Which edges at an entity: OUTGOING gives the destinations of the edges it is the source
 * of, INCOMING the sources of the edges pointing at it, UNDIRECTED both.
 */
export type Direction = 'INCOMING' | 'OUTGOING' | 'UNDIRECTED'

export interface RelationshipQuery {
  readonly urn: string
  readonly direction: Direction
  /** Relationship names; empty means all. */
  readonly types: readonly string[]
  readonly start: number
  readonly count: number
}

export interface RelationshipPage {
  /** Distinct (type, entity) pairs in all pages. */
  readonly total: number
  readonly relationships: ReadonlyArray<{ readonly type: string; readonly entity: string }>
}

/** Lineage direction: toward the sources of the data (UPSTREAM) or its consumers (DOWNSTREAM). */
export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM'

/**
 * A lineage relationship as the registry declares it: edges `source -[type]-> destination`
 * where the source's entity type is one of `sourceTypes` and the destination's one of
 * `destinationTypes`. With `isUpstream` the destination is upstream of the source (as for
 * `DownstreamOf`, `Consumes`); without it the destination is downstream (as for `Produces`,
 * `MemberOf`). An UPSTREAM traversal therefore follows an `isUpstream` edge OUTGOING and
 * the others INCOMING; DOWNSTREAM the reverse.
 */
export interface LineageEdgeSpec {
  readonly type: string
  readonly isUpstream: boolean
  readonly sourceTypes: readonly string[]
  readonly destinationTypes: readonly string[]
}

/** A bounded multi-hop lineage traversal. */
export interface LineageQuery {
  readonly urn: string
  readonly direction: LineageDirection
  /** Hops to follow (at least 1). */
  readonly maxHops: number
  /** Page over the results ordered by (degree, urn). */
  readonly start: number
  readonly count: number
  /** The traversal stops once this many entities were found (the start excluded). */
  readonly maxNodes: number
  /** The traversal stops after this many milliseconds of work. */
  readonly timeBudgetMs: number
  /**
   * When false (the usual case), entities whose latest `status` has `removed: true` are
   * neither returned nor traversed through. The start entity is always traversed.
   */
  readonly includeSoftDeleted: boolean
  /** The lineage relationships to follow; edges of other types are ignored. */
  readonly edges: readonly LineageEdgeSpec[]
}

/** One entity reached by a lineage traversal. */
export interface LineageResult {
  readonly entity: string
  /** Relationship type of the last hop of `path`. */
  readonly type: string
  /** Hops from the start: the length of a shortest path. */
  readonly degree: number
  /** One shortest path: the start URN, ..., this entity. */
  readonly path: readonly string[]
}

/** What cut a traversal short. */
export type PartialReason = 'MAX_HOPS' | 'NODE_BUDGET' | 'TIME_BUDGET'

export interface LineagePage {
  /** Entities found within the bounds (all pages). */
  readonly total: number
  readonly results: readonly LineageResult[]
  /** True when a bound stopped the traversal while more lineage was left to explore. */
  readonly isPartial: boolean
  readonly partialReason?: PartialReason
}

/** One edge `source -[type]-> destination`; edges written by several aspects count once. */
export interface EdgeKey {
  readonly source: string
  readonly destination: string
  readonly type: string
}

/**
 * A scan over every edge of the graph, as DataHub's generic relationship scroll: each list
 * filters when not empty (OR within a list, AND across lists); entity types are those of the
 * URNs (`dataset` of `urn:li:dataset:(...)`).
 */
export interface EdgeScanQuery {
  /** Relationship names. */
  readonly types: readonly string[]
  readonly sourceTypes: readonly string[]
  readonly destinationTypes: readonly string[]
  readonly sourceUrns: readonly string[]
  readonly destinationUrns: readonly string[]
  /** Edges after this one in (source, destination, type) order; absent for the first page. */
  readonly after?: EdgeKey | undefined
  /** Edges per page (at least 1). */
  readonly count: number
  /** When false, edges whose source or destination is soft-deleted (latest `status.removed`) are left out. */
  readonly includeSoftDeleted: boolean
  /**
   * Only the edges of slice `id` of `max` (0 <= id < max): the slices of a scan are disjoint
   * and together hold every edge, each edge always in the same slice while it exists.
   */
  readonly slice?: { readonly id: number; readonly max: number } | undefined
}

export interface EdgeScanPage {
  /** Distinct edges ordered by (source, destination, type), at most `count`. */
  readonly edges: readonly EdgeKey[]
  /**
   * The cursor for the next page (the last edge returned); absent when no edge follows. A scan
   * that ran out of time may end a page short (even empty) with a cursor past what it read.
   */
  readonly next?: EdgeKey
}

/** Relationship edges and traversals over them. */
export interface GraphStore {
  /**
   * Edges at `urn`: OUTGOING gives destinations, INCOMING gives sources, UNDIRECTED both.
   * Distinct (type, entity) pairs ordered by type, then entity URN.
   */
  relationships(query: RelationshipQuery): Promise<RelationshipPage>

  /**
   * One page of a keyset scan over all edges, filtered by relationship type, entity types and
   * URNs at either end; see {@link EdgeScanQuery}.
   */
  scanEdges(query: EdgeScanQuery): Promise<EdgeScanPage>

  /**
   * Breadth-first lineage from `urn` along the given lineage edges, bounded by hops, nodes
   * and time; cycles end at entities already reached. Results are ordered by (degree, urn),
   * each with its degree and one shortest path.
   */
  lineage(query: LineageQuery): Promise<LineagePage>
}
