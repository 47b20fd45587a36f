import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import type { FacetFilter, OrFilters } from './search-input.js'
import { listEntities } from './users-groups.js'

/** DataHub's page size of `listQueries` when `count` is not given. */
const DEFAULT_COUNT = 100

/** DataHub's `ListQueriesInput`. */
interface ListQueriesInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
  readonly source?: string | null
  readonly datasetUrn?: string | null
  readonly sortInput?: {
    readonly sortCriterion: { readonly field: string; readonly sortOrder: 'ASCENDING' | 'DESCENDING' }
  } | null
  readonly orFilters?: OrFilters
}

/**
 * DataHub's ListQueriesResolver: the query entities matching `query` (all without one), of
 * `source` and about `datasetUrn` when given (ANDed into every `orFilters` group), newest first
 * by creation unless `sortInput` says otherwise, 100 per page by default.
 */
async function listQueries(_: unknown, { input }: { input: ListQueriesInput }, ctx: CatalogContext) {
  const and: FacetFilter[] = []
  if (input.source != null) and.push({ field: 'source', values: [input.source] })
  if (input.datasetUrn != null) and.push({ field: 'entities', values: [input.datasetUrn] })
  const groups = input.orFilters?.length
    ? input.orFilters.map((g) => ({ and: [...(g.and ?? []), ...and] }))
    : and.length > 0
      ? [{ and }]
      : null
  const sort = input.sortInput?.sortCriterion
  const { urns, ...page } = await listEntities(
    ctx,
    'query',
    { start: input.start, count: input.count ?? DEFAULT_COUNT, query: input.query, orFilters: groups },
    [sort ? { field: sort.field, order: sort.sortOrder } : { field: 'createdAt', order: 'DESCENDING' }],
  )
  return { ...page, queries: urns.map((urn): EntitySource => ({ urn })) }
}

/** Root queries of query entities. */
export const queryQueries = { listQueries }
