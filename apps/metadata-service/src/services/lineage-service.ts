import type { Config } from '@catalog/config'
import { InvalidInputError, parseUrn, type Registry } from '@catalog/core'
import type { Direction, LineageDirection, LineageEdgeSpec, MetadataStore } from '@catalog/store'
import type { LineageResponse, RelationshipsResponse } from '../schemas/relationships.js'

/** Bounds of every multi-hop lineage query. */
export interface LineageLimits {
  /** Largest `maxHops` honoured; a larger request is cut to it (and says isPartial when that cuts). */
  readonly maxHops: number
  /** Entities one traversal may collect before it stops. */
  readonly maxNodes: number
  /** Milliseconds of traversal work before it stops with what it has. */
  readonly timeBudgetMs: number
}

export const DEFAULT_LINEAGE_LIMITS: LineageLimits = { maxHops: 10, maxNodes: 10_000, timeBudgetMs: 2_000 }

/** The lineage bounds the configuration sets (`CATALOG_LINEAGE_*`). */
export function lineageLimitsFrom(
  config: Pick<
    Config,
    'CATALOG_LINEAGE_MAX_HOPS' | 'CATALOG_LINEAGE_MAX_NODES' | 'CATALOG_LINEAGE_TIME_BUDGET_MS'
  >,
): LineageLimits {
  return {
    maxHops: config.CATALOG_LINEAGE_MAX_HOPS,
    maxNodes: config.CATALOG_LINEAGE_MAX_NODES,
    timeBudgetMs: config.CATALOG_LINEAGE_TIME_BUDGET_MS,
  }
}

/** Page size when none is asked for. */
const DEFAULT_COUNT = 100

export interface RelationshipsRequest {
  readonly urn: string
  readonly direction: Direction
  readonly types: readonly string[] | undefined
  /** Default 0. */
  readonly start?: number | undefined
  /** Default 100. */
  readonly count?: number | undefined
}

export interface LineageRequest {
  readonly urn: string
  readonly direction: LineageDirection
  /** Default 1; cut to the configured cap. */
  readonly maxHops?: number | undefined
  /** Default 0. */
  readonly start?: number | undefined
  /** Default 100. */
  readonly count?: number | undefined
  /** Default false: soft-deleted entities are neither returned nor traversed. */
  readonly includeSoftDeleted?: boolean | undefined
}

/**
 * Relationship reads and multi-hop lineage. Edges come from the registry's relationship
 * annotations (derived at write time); lineage follows every annotation marked `isLineage`,
 * each in the direction its `isUpstream` flag gives, between the entity types it declares.
 */
export class LineageService {
  /** The lineage relationships of the registry, one per (name, direction flag, source entity type). */
  readonly edgeSpecs: readonly LineageEdgeSpec[]

  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly limits: LineageLimits = DEFAULT_LINEAGE_LIMITS,
  ) {
    this.edgeSpecs = lineageEdgeSpecs(registry)
  }

  /**
   * `GET /relationships`: the entities at the other end of `urn`'s edges of the given types,
   * as DataHub's `EntityRelationships` plus the spec's `entities` list.
   */
  async relationships(r: RelationshipsRequest): Promise<RelationshipsResponse> {
    checkUrn(this.registry, r.urn)
    if (!r.types || r.types.length === 0) throw new InvalidInputError("Parameter 'types' is required")
    const start = r.start ?? 0
    const page = await this.store.relationships({
      urn: r.urn,
      direction: r.direction,
      types: r.types,
      start,
      count: r.count ?? DEFAULT_COUNT,
    })
    return {
      start,
      count: page.relationships.length,
      total: page.total,
      relationships: page.relationships.map((x) => ({ type: x.type, entity: x.entity })),
      entities: page.relationships.map((x) => x.entity),
    }
  }

  /**
   * Multi-hop lineage from `urn`, bounded by the configured hop cap, node budget and time
   * budget; soft-deleted entities are skipped (not returned, not traversed) unless asked for.
   */
  async lineage(r: LineageRequest): Promise<LineageResponse> {
    checkUrn(this.registry, r.urn)
    const asked = r.maxHops ?? 1
    if (!Number.isInteger(asked) || asked < 1)
      throw new InvalidInputError(`maxHops must be a positive integer, got ${asked}`)
    const maxHops = Math.min(asked, this.limits.maxHops)
    const start = r.start ?? 0
    const page = await this.store.lineage({
      urn: r.urn,
      direction: r.direction,
      maxHops,
      start,
      count: r.count ?? DEFAULT_COUNT,
      maxNodes: this.limits.maxNodes,
      timeBudgetMs: this.limits.timeBudgetMs,
      includeSoftDeleted: r.includeSoftDeleted ?? false,
      edges: this.edgeSpecs,
    })
    return {
      urn: r.urn,
      direction: r.direction,
      maxHops,
      start,
      count: page.results.length,
      total: page.total,
      isPartial: page.isPartial,
      // The store's results as they are: every adapter builds them fresh for this answer, with
      // the members the schema has, in its order (entity, type, degree, path).
      relationships: page.results as LineageResponse['relationships'],
      entities: page.results.map((x) => x.entity),
      // Last, where the response schema's serializer puts an optional member: the route writes
      // this object with JSON.stringify, and the text stays what it was.
      ...(page.partialReason ? { partialReason: page.partialReason } : {}),
    }
  }
}

function checkUrn(registry: Registry, urn: string): void {
  // A modelled entity type's URN must have its key's shape; edges may also point at entity
  // types this catalog does not model, whose URNs need only be well-formed.
  if (registry.findEntity(parseUrn(urn).entityType)) registry.resolveUrn(urn)
}

/** Every `isLineage` relationship annotation of the registry, key aspects included. */
export function lineageEdgeSpecs(registry: Registry): LineageEdgeSpec[] {
  const specs = new Map<string, { type: string; isUpstream: boolean; source: string; dest: Set<string> }>()
  for (const entity of registry.allEntities()) {
    const annotations = [
      ...(entity.keyRelationships ?? []),
      ...entity.aspects.flatMap((name) => registry.findAspect(entity, name)?.relationships ?? []),
    ]
    for (const rel of annotations) {
      if (rel.isLineage !== true) continue
      const isUpstream = rel.isUpstream !== false
      const key = `${rel.name}\u0000${isUpstream}\u0000${entity.name}`
      let spec = specs.get(key)
      if (!spec) {
        spec = { type: rel.name, isUpstream, source: entity.name, dest: new Set() }
        specs.set(key, spec)
      }
      for (const t of rel.entityTypes) spec.dest.add(t)
    }
  }
  return [...specs.values()].map((s) => ({
    type: s.type,
    isUpstream: s.isUpstream,
    sourceTypes: [s.source],
    destinationTypes: [...s.dest].sort(),
  }))
}
