import { InvalidInputError, parseUrn } from '@catalog/core'
import { type GraphQLResolveInfo, isObjectType } from 'graphql'
import type { CatalogContext } from '../context.js'
import { withDocumentVisibility } from './document-visibility.js'
import { typeNameOf } from './entities.js'
import { searchOf } from './search.js'
import { type Flags, type OrFilters, toFlags } from './search-input.js'
import { applyView, filterOf } from './view-apply.js'

/** DataHub's page size and first group when `count` / `start` are not given. */
const DEFAULT_COUNT = 10
const DEFAULT_START = 0
/** Entity types browsed when no `type`/`types` are given (DataHub's `BROWSE_ENTITY_TYPES`). */
const BROWSE_ENTITY_TYPES = [
  'dataset',
  'dashboard',
  'chart',
  'container',
  'mlModel',
  'mlModelGroup',
  'mlFeatureTable',
  'dataFlow',
  'dataJob',
  'notebook',
]
/** DataHub's separator of browse path v2 entries (`BROWSE_PATH_V2_DELIMITER`). */
const DELIMITER = '\u241F'

interface BrowseV2Input {
  readonly type?: string | null
  readonly types?: readonly string[] | null
  readonly path?: readonly string[] | null
  readonly start?: number | null
  readonly count?: number | null
  readonly orFilters?: OrFilters
  readonly viewUrn?: string | null
  readonly query?: string | null
  readonly searchFlags?: Flags
}

/** `browseV2`: the `browsePathsV2` groups one level under a path, answered by the search index. */
export const browseV2Queries = {
  /**
   * As DataHub's `BrowseV2Resolver`: `types` win over `type`, neither browses DataHub's browse
   * entity types; `total` is the number of groups, `metadata.totalNumEntities` the entities
   * under the path; a group whose id is a URN carries that entity. A view narrows the
   * entity types and joins its filter to `orFilters`.
   */
  browseV2: async (
    _: unknown,
    { input }: { input: BrowseV2Input },
    ctx: CatalogContext,
    info: GraphQLResolveInfo,
  ) => {
    const viewed = await applyView(ctx, input.viewUrn, entityNamesOf(ctx, input), filterOf(input.orFilters))
    const entities = viewed.entities
    if (entities.length === 0) return emptyBrowse(input)
    const filter = await withDocumentVisibility(ctx, entities, viewed.filter)
    const answer = await searchOf(ctx).browseV2({
      entities,
      path: input.path ?? [],
      input: input.query ?? '*',
      start: input.start ?? DEFAULT_START,
      count: input.count ?? DEFAULT_COUNT,
      ...(filter ? { filter } : {}),
      searchFlags: toFlags(input.searchFlags),
    })
    return {
      groups: answer.groups.map((g) => ({
        name: g.name,
        count: g.count,
        hasSubGroups: g.hasSubGroups,
        entity: g.urn ? entityOf(ctx, info, g.urn) : null,
      })),
      start: answer.from,
      count: answer.pageSize,
      total: answer.numGroups,
      metadata: {
        path: answer.metadata.path.split(DELIMITER).filter((p) => p !== ''),
        totalNumEntities: answer.metadata.totalNumEntities,
      },
    }
  },
}

/** No group: a view leaves no entity type to browse. */
function emptyBrowse(input: BrowseV2Input) {
  const metadata = { path: [...(input.path ?? [])], totalNumEntities: 0 }
  return { groups: [], start: input.start ?? DEFAULT_START, count: 0, total: 0, metadata }
}

/** Registry names of the browsed `EntityType` symbols. */
function entityNamesOf(ctx: CatalogContext, input: BrowseV2Input): string[] {
  const symbols = input.types?.length ? input.types : input.type ? [input.type] : undefined
  if (!symbols) return BROWSE_ENTITY_TYPES.filter((n) => ctx.registry.findEntity(n))
  return symbols.map((symbol) => {
    const entity = ctx.registry.allEntities().find((e) => e.graphqlType === symbol)
    if (!entity) throw new InvalidInputError(`Entity type ${symbol} is not browsable here`)
    return entity.name
  })
}

/**
 * The group's entity: a reference the entity resolvers fill for types served here; for other
 * entity types of DataHub's schema (`Container`, `DataFlow`, ...) its `urn` and `type`.
 */
function entityOf(ctx: CatalogContext, info: GraphQLResolveInfo, urn: string) {
  if (typeNameOf(urn)) return { urn }
  let name: string
  try {
    name = parseUrn(urn).entityType
  } catch {
    return null
  }
  const symbol = ctx.registry.findEntity(name)?.graphqlType
  const typeName = `${name.charAt(0).toUpperCase()}${name.slice(1)}`
  const type = info.schema.getType(typeName)
  if (!symbol || !isObjectType(type) || !type.getInterfaces().some((i) => i.name === 'Entity')) return null
  return { __typename: typeName, urn, type: symbol }
}
