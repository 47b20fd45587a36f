import { InvalidInputError, parseUrn, type Registry } from '@catalog/core'
import type { EdgeKey, MetadataStore } from '@catalog/store'

/** A node of a scrolled relationship: `GenericRelationship.GenericNode`. */
export interface RelationshipNode {
  readonly urn: string
  readonly entityType: string
}

/** DataHub's `GenericScrollResult<GenericRelationship>`; `scrollId` is absent on the last page. */
export interface RelationshipScrollResult {
  readonly scrollId?: string
  readonly results: Array<{
    relationshipType: string
    source: RelationshipNode
    destination: RelationshipNode
  }>
}

/** One scroll request; lists left empty or absent do not filter. */
export interface RelationshipScrollRequest {
  readonly relationshipTypes?: readonly string[] | undefined
  readonly sourceTypes?: readonly string[] | undefined
  readonly destinationTypes?: readonly string[] | undefined
  readonly sourceUrns?: readonly string[] | undefined
  readonly destinationUrns?: readonly string[] | undefined
  readonly count: number
  readonly scrollId?: string | undefined
  readonly includeSoftDelete: boolean
  /** Slicing applies only when both are given, as in DataHub. */
  readonly sliceId?: number | undefined
  readonly sliceMax?: number | undefined
}

/**
 * DataHub's generic relationship scroll (`GenericRelationshipController`, `/openapi/v{2,3}/
 * relationship`): pages of edges over the whole graph in DataHub's edge order (source URN,
 * destination URN, relationship type), filtered by relationship type, entity types and URNs at
 * either end, leaving out edges with a soft-deleted end unless asked for. The scroll id is
 * the last edge of the page, so a scroll never expires and stays consistent under writes. A
 * filter that matches few of the edges the store reads is bounded by the store's time budget: the
 * page then holds fewer edges than asked for (none, even) and a scroll id to go on from, as
 * DataHub's scroll may answer a short page with a scroll id.
 */
export class RelationshipScrollService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
  ) {}

  async scroll(r: RelationshipScrollRequest): Promise<RelationshipScrollResult> {
    const sourceTypes = this.entityTypes(r.sourceTypes)
    const destinationTypes = this.entityTypes(r.destinationTypes)
    const sourceUrns = urns(r.sourceUrns)
    const destinationUrns = urns(r.destinationUrns)
    const after = decodeScrollId(r.scrollId)
    const slice = sliceOf(r.sliceId, r.sliceMax)
    if (r.count === 0) return { results: [] }
    const page = await this.store.scanEdges({
      types: r.relationshipTypes ?? [],
      sourceTypes,
      destinationTypes,
      sourceUrns,
      destinationUrns,
      after,
      count: r.count,
      includeSoftDeleted: r.includeSoftDelete,
      slice,
    })
    return {
      ...(page.next ? { scrollId: encodeScrollId(page.next) } : {}),
      results: page.edges.map((e) => ({
        relationshipType: e.type,
        source: node(e.source),
        destination: node(e.destination),
      })),
    }
  }

  /** The entity types asked for; an unknown one is a 400. */
  private entityTypes(names: readonly string[] | undefined): string[] {
    for (const name of names ?? []) {
      if (!this.registry.findEntity(name))
        throw new InvalidInputError(
          `Unknown entity: ${name}. Failed to find entity with name ${name} in EntityRegistry`,
        )
    }
    return [...(names ?? [])]
  }
}

const URN_PREFIX = 'urn:li:'

/** The URNs asked for, each checked well-formed. */
function urns(list: readonly string[] | undefined): string[] {
  for (const urn of list ?? []) parseUrn(urn)
  return [...(list ?? [])]
}

/** A stored URN's node: its entity type is the text between `urn:li:` and the next colon. */
function node(urn: string): RelationshipNode {
  const colon = urn.indexOf(':', URN_PREFIX.length)
  if (!urn.startsWith(URN_PREFIX) || colon <= URN_PREFIX.length)
    return { urn, entityType: parseUrn(urn).entityType }
  return { urn, entityType: urn.slice(URN_PREFIX.length, colon) }
}

function sliceOf(id: number | undefined, max: number | undefined): { id: number; max: number } | undefined {
  if (id === undefined || max === undefined) return undefined
  if (max <= 1) throw new InvalidInputError(`Invalid slice: sliceMax must be greater than 1, got ${max}`)
  if (id < 0 || id >= max)
    throw new InvalidInputError(
      `Invalid slice: sliceId must be at least 0 and lower than sliceMax, got ${id}`,
    )
  return { id, max }
}

function encodeScrollId(edge: EdgeKey): string {
  return Buffer.from(JSON.stringify([edge.source, edge.destination, edge.type]), 'utf8').toString('base64url')
}

function decodeScrollId(scrollId: string | undefined): EdgeKey | undefined {
  if (scrollId === undefined || scrollId === '') return undefined
  try {
    const parsed = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8')) as unknown
    if (Array.isArray(parsed) && parsed.length === 3 && parsed.every((p) => typeof p === 'string')) {
      const [source, destination, type] = parsed as [string, string, string]
      return { source, destination, type }
    }
  } catch {
    // reported below
  }
  throw new InvalidInputError(`Invalid scrollId: ${scrollId}`)
}
