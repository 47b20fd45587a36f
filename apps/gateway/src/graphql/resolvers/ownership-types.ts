import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { searchOf } from './search.js'
import { type FacetFilter, toFilter } from './search-input.js'

/** DataHub's `ListOwnershipTypesResolver` page defaults. */
const DEFAULT_START = 0
const DEFAULT_COUNT = 20

interface ListOwnershipTypesInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
  readonly filters?: readonly FacetFilter[] | null
}

/** Root queries of ownership types (the owners modal of every entity page lists them). */
export const ownershipTypeQueries = {
  /**
   * DataHub's `ListOwnershipTypesResolver`: the ownership types the search index finds for
   * `query` and `filters`, newest first (`createdAt` descending). No privilege is needed.
   */
  listOwnershipTypes: async (
    _: unknown,
    { input }: { input: ListOwnershipTypesInput },
    ctx: CatalogContext,
  ) => {
    const answer = await searchOf(ctx).searchAcrossEntities({
      input: input.query?.trim() || '*',
      entities: ['ownershipType'],
      start: input.start ?? DEFAULT_START,
      count: input.count ?? DEFAULT_COUNT,
      ...toFilter(null, input.filters),
      sortCriteria: [{ field: 'createdAt', order: 'DESCENDING' }],
      searchFlags: { fulltext: true, skipAggregates: true, skipHighlighting: true },
    })
    return {
      start: answer.from,
      count: answer.pageSize,
      total: answer.numEntities,
      ownershipTypes: answer.metadata.urns.map((urn): EntitySource => ({ urn })),
    }
  },
}
