import { InvalidInputError, statusOf } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { withDocumentVisibility } from './document-visibility.js'
import { searchOf } from './search.js'
import { entityName, entitySymbol, type FacetFilter, type OrFilters, SEARCHED } from './search-input.js'
import { applyView, filterOf, type SearchFilter } from './view-apply.js'

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

async function suggest(ctx: CatalogContext, entity: string, input: AutoCompleteInput, given: SearchFilter) {
  const filter = await withDocumentVisibility(ctx, [entity], given)
  const answer = await searchOf(ctx).autocomplete({
    entity,
    query: input.query,
    limit: input.limit ?? DEFAULT_LIMIT,
    ...(input.field ? { field: input.field } : {}),
    ...(filter ? { filter } : {}),
  })
  return {
    query: answer.query,
    suggestions: answer.suggestions,
    entities: answer.entities.map((e) => ({ urn: e.urn })),
  }
}

/**
 * Suggestions of each type. A filter some types cannot take (a field they do not index) leaves
 * those types out, as DataHub's per-type autocomplete answers them empty; when every type
 * refuses the input, the first refusal is the answer.
 */
async function suggestEach(
  ctx: CatalogContext,
  types: readonly string[],
  input: AutoCompleteInput,
  filter: SearchFilter,
) {
  const settled = await Promise.allSettled(
    types.map(async (name) => ({ type: entitySymbol(name), ...(await suggest(ctx, name, input, filter)) })),
  )
  const refused = settled.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []))
  const other = refused.find((err) => statusOf(err) !== 400)
  if (other !== undefined || refused.length === settled.length) throw other ?? refused[0]
  return settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []))
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
    return suggest(ctx, entityName(input.type), input, filterOf(input.orFilters, input.filters))
  },

  /**
   * Per entity type; types with no suggestion are left out, as DataHub does. A view narrows the
   * types (DataHub's intersection; when none is left, every autocompleted type) and ANDs its
   * filter with the input's.
   */
  autoCompleteForMultiple: async (
    _: unknown,
    { input }: { input: AutoCompleteInput & { types?: readonly string[] | null; viewUrn?: string | null } },
    ctx: CatalogContext,
  ) => {
    checkQuery(input.query)
    const asked = (input.types ?? []).map(entityName)
    const view = await applyView(ctx, input.viewUrn, asked, filterOf(input.orFilters, input.filters))
    const types = view.entities.filter((name) => SEARCHED.includes(name))
    const perType = await suggestEach(ctx, types.length > 0 ? types : SEARCHED, input, view.filter)
    return {
      query: input.query,
      suggestions: perType
        .filter((r) => r.suggestions.length > 0)
        .map((r) => ({ type: r.type, suggestions: r.suggestions, entities: r.entities })),
    }
  },
}
