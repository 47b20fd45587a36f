import type { GraphQLResolveInfo } from 'graphql'
import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'
import { resolveInput } from '../../mutations/support.js'
import { searchQueries } from '../search.js'
import {
  entitySymbol,
  type FacetFilter,
  type Flags,
  type OrFilters,
  type SortInput,
} from '../search-input.js'

interface VersionsSearchInput {
  readonly types?: readonly string[] | null
  readonly query: string
  readonly orFilters?: OrFilters
  readonly filters?: readonly FacetFilter[] | null
  readonly sortInput?: SortInput | null
  readonly searchFlags?: Flags
  readonly [other: string]: unknown
}

/**
 * `VersionSet.versionsSearch`, as DataHub's VersionsSearchResolver: a search across entities
 * restricted to the set's versions (the criterion added to every clause), newest version first
 * after any sort asked for.
 */
export function versionsSearch(
  source: EntitySource,
  args: { input: VersionsSearchInput },
  ctx: CatalogContext,
  info: GraphQLResolveInfo,
) {
  const { input } = args
  const inSet: FacetFilter = { field: 'versionSet', values: [source.urn] }
  const clauses = input.orFilters?.length
    ? input.orFilters.map((c) => ({ and: [...(c.and ?? []), inSet] }))
    : [{ and: [...(input.filters ?? []), inSet] }]
  const given =
    input.sortInput?.sortCriteria ?? (input.sortInput?.sortCriterion ? [input.sortInput.sortCriterion] : [])
  const setType = resolveInput(ctx, source.urn).key.entityType
  return searchQueries.searchAcrossEntities(
    undefined,
    {
      input: {
        ...input,
        types: input.types?.length ? input.types : setType ? [entitySymbol(setType)] : null,
        orFilters: clauses,
        filters: null,
        sortInput: { sortCriteria: [...given, { field: 'versionSortId', sortOrder: 'DESCENDING' }] },
        searchFlags: {
          ...(input.searchFlags as Record<string, unknown> | null | undefined),
          filterNonLatestVersions: false,
        },
      },
    },
    ctx,
    info,
  )
}
