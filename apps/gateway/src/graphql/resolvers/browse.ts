import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { browsePaths } from '../mappers/common.js'
import { typeNameOf } from './entities.js'
import { searchOf } from './search.js'
import { entityName, type FacetFilter, type OrFilters, toFilter } from './search-input.js'

/** DataHub's browse page size when `count` is not given. */
const DEFAULT_COUNT = 10

interface BrowseInput {
  readonly type: string
  readonly path?: readonly string[] | null
  readonly start?: number | null
  readonly count?: number | null
  readonly filters?: readonly FacetFilter[] | null
  readonly orFilters?: OrFilters
}

const segments = (path: string) => path.split('/').filter((s) => s.length > 0)

/** Root browse queries over the legacy `browsePaths` (`/prod/kafka/...`). */
export const browseQueries = {
  /**
   * The entities at a browse path and the groups one level below it, groups first in paging;
   * `total` counts both, `metadata.totalNumEntities` the entities anywhere below the path.
   */
  browse: async (_: unknown, { input }: { input: BrowseInput }, ctx: CatalogContext) => {
    const path = input.path?.length ? `/${input.path.join('/')}` : ''
    const answer = await searchOf(ctx).browse({
      entity: entityName(input.type),
      path,
      start: input.start ?? 0,
      limit: input.count ?? DEFAULT_COUNT,
      ...toFilter(input.orFilters, input.filters),
    })
    return {
      entities: answer.entities.map((e) => ({ urn: e.urn })).filter((e) => typeNameOf(e.urn)),
      groups: answer.groups.map((g) => ({ name: g.name, count: g.count })),
      start: answer.from,
      count: answer.pageSize,
      total: answer.numElements,
      metadata: { path: segments(answer.metadata.path), totalNumEntities: answer.metadata.totalNumEntities },
    }
  },

  /** The browse paths of one entity, each as its segments; none for an entity without any. */
  browsePaths: async (
    _: unknown,
    { input }: { input: { type: string; urn: string } },
    ctx: CatalogContext,
  ) => {
    const name = entityName(input.type)
    if (ctx.graph.entityType(input.urn) !== name) {
      throw new InvalidInputError(`Invalid urn ${input.urn}: expected a ${name} urn`)
    }
    const entity = (await ctx.client.getEntities([input.urn], ['browsePaths'])).get(input.urn)
    return browsePaths(entity?.aspects.browsePaths) ?? []
  },
}
