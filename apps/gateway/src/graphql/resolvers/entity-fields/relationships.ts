import { parseUrn } from '@catalog/core'
import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'
import { typeNameOf } from '../entities.js'

/** DataHub's page size of `relationships` when `count` is not given (JavaGraphClient). */
const DEFAULT_COUNT = 100

interface RelationshipsInput {
  readonly types: readonly string[]
  readonly direction: 'INCOMING' | 'OUTGOING'
  readonly start?: number | null
  readonly count?: number | null
  readonly includeSoftDelete?: boolean | null
  readonly relatedEntityTypes?: readonly string[] | null
}

function entityTypeOf(urn: string): string | undefined {
  try {
    return parseUrn(urn).entityType
  } catch {
    return undefined
  }
}

async function removed(ctx: CatalogContext, urn: string): Promise<boolean> {
  if (!typeNameOf(urn)) return false
  const loaded = await ctx.graph.loader.load(urn)
  return loaded.aspects.status?.removed === true
}

/**
 * The `relationships(input:)` field, as DataHub's EntityRelationshipsResultResolver: one page
 * of the entities at the other end of the entity's edges of `types`, in `direction`. With
 * `includeSoftDelete: false` soft-deleted entities leave the page (counts stay the graph's).
 * An entity of a type this API does not serve is answered as null.
 */
export async function entityRelationships(
  source: EntitySource,
  { input }: { input: RelationshipsInput },
  ctx: CatalogContext,
) {
  const page = await ctx.client.relationships({
    urn: source.urn,
    direction: input.direction,
    types: input.types,
    start: input.start ?? 0,
    count: input.count ?? DEFAULT_COUNT,
  })
  const wanted = input.relatedEntityTypes ? new Set(input.relatedEntityTypes) : undefined
  let found = page.relationships.filter((r) => !wanted || wanted.has(entityTypeOf(r.entity) ?? ''))
  if (input.includeSoftDelete === false) {
    const gone = await Promise.all(found.map((r) => removed(ctx, r.entity)))
    found = found.filter((_, i) => !gone[i])
  }
  return {
    start: page.start,
    count: page.count,
    total: page.total,
    relationships: found.map((r) => ({
      type: r.type,
      direction: input.direction,
      entity: typeNameOf(r.entity) ? { urn: r.entity } : null,
      created: null,
    })),
  }
}
