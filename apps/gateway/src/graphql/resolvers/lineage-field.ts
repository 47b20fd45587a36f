import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { typeNameOf } from './entities.js'
import { type Direction, type LineageFlags, refuseUnsupportedFlags } from './lineage-input.js'

/** DataHub's page size of an entity's lineage when `count` is not given. */
const DEFAULT_COUNT = 100

interface LineageInput extends LineageFlags {
  readonly direction: Direction
  readonly start?: number | null
  readonly count?: number | null
  readonly separateSiblings?: boolean | null
  readonly includeGhostEntities?: boolean | null
}

async function existing(ctx: CatalogContext, urn: string): Promise<boolean> {
  try {
    return await ctx.client.exists(urn)
  } catch {
    // An edge may point at an entity type this catalog does not model: it cannot exist here.
    return false
  }
}

/**
 * The `lineage(input:)` field of every entity type declaring it: the entities one hop
 * upstream or downstream, paged. Unless `includeGhostEntities`, entities that do not exist
 * (referenced, never written) are left out of the page and counted in `filtered`, as DataHub does.
 */
export async function entityLineage(
  source: EntitySource,
  { input }: { input: LineageInput },
  ctx: CatalogContext,
) {
  refuseUnsupportedFlags(input)
  const start = input.start ?? 0
  const answer = await ctx.client.lineage({
    urn: source.urn,
    direction: input.direction,
    maxHops: 1,
    start,
    count: input.count ?? DEFAULT_COUNT,
  })
  let relationships = answer.relationships
  if (!input.includeGhostEntities) {
    const exists = await Promise.all(relationships.map((r) => existing(ctx, r.entity)))
    relationships = relationships.filter((_, i) => exists[i])
  }
  return {
    start,
    count: relationships.length,
    total: answer.total,
    filtered: answer.relationships.length - relationships.length,
    relationships: relationships.map((r) => ({
      type: r.type,
      entity: typeNameOf(r.entity) ? { urn: r.entity } : null,
      degree: r.degree,
      createdOn: null,
      createdActor: null,
      updatedOn: null,
      updatedActor: null,
      isManual: null,
      paths: [{ path: r.path.map((urn) => (typeNameOf(urn) ? { urn } : null)) }],
    })),
  }
}
