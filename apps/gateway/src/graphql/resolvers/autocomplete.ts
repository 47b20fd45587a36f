import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { searchOf } from './search.js'
import {
  entityName,
  entityNames,
  entitySymbol,
  type FacetFilter,
  type OrFilters,
  refuseView,
  toFilter,
} from './search-input.js'

/** DataHub's suggestion count when `limit` is not given. */
const DEFAULT_LIMIT = 5

interface AutoCompleteInput {
  readonly query: string
  readonly field?: string | null
  readonly limit?: number | null
  readonly filters?: readonly FacetFilter[] | null
  readonly orFilters?: OrFilters
}

/** DataHub's check: a blank query is refused before any work. */
function checkQuery(query: string): void {
  if (query.trim() === '') throw new InvalidInputError("'query' parameter can not be null or empty")
}

async function suggest(ctx: CatalogContext, entity: string, input: AutoCompleteInput) {
  const answer = await searchOf(ctx).autocomplete({
    entity,
    query: input.query,
    limit: input.limit ?? DEFAULT_LIMIT,
    ...(input.field ? { field: input.field } : {}),
    ...toFilter(input.orFilters, input.filters),
  })
  return {
    query: answer.query,
    suggestions: answer.suggestions,
    entities: answer.entities.map((e) => ({ urn: e.urn })),
  }
}

/** Root autocomplete queries. */
export const autocompleteQueries = {
  /** One entity type; DataHub's resolver needs `type` although the schema leaves it optional. */
  autoComplete: (
    _: unknown,
    { input }: { input: AutoCompleteInput & { type?: string | null } },
    ctx: CatalogContext,
  ) => {
    checkQuery(input.query)
    if (!input.type) throw new InvalidInputError('autoComplete needs an entity type (input.type)')
    return suggest(ctx, entityName(input.type), input)
  },

  /** Per entity type; types with no suggestion are left out, as DataHub does. */
  autoCompleteForMultiple: async (
    _: unknown,
    { input }: { input: AutoCompleteInput & { types?: readonly string[] | null; viewUrn?: string | null } },
    ctx: CatalogContext,
  ) => {
    checkQuery(input.query)
    refuseView(input.viewUrn)
    const perType = await Promise.all(
      entityNames(input.types).map(async (name) => ({
        type: entitySymbol(name),
        ...(await suggest(ctx, name, input)),
      })),
    )
    return {
      query: input.query,
      suggestions: perType
        .filter((r) => r.suggestions.length > 0)
        .map((r) => ({ type: r.type, suggestions: r.suggestions, entities: r.entities })),
    }
  },
}
