import {
  type AutocompleteRequest,
  type AutocompleteResultPage,
  type AutocompleteSuggestion,
  type DocumentFields,
  fold,
  mergeContributions,
  queryWords,
  suggestion,
} from '@catalog/search'
import { ATTR, textAttr } from './attributes.js'
import { and, isFalse, render, resolveLookups } from './filter-expr.js'
import { scopeFilter, translateFilter } from './filter-translator.js'
import { LookupResolver } from './lookup-resolver.js'
import type { QueryContext } from './search-query.js'

const MAX_CANDIDATES = 300

interface Candidate {
  readonly urn: string
  readonly _parts: string
}

/**
 * Autocomplete: a Meilisearch prefix search of the query's words (every word required,
 * the last one as a prefix) restricted with `attributesToSearchOn` to the autocomplete
 * fields, best matches first (the fields' boost order); then one suggestion per document:
 * the first field value holding every query word as a word prefix, values starting with the
 * whole query ranked first. A document Meilisearch matched only through a typo suggests
 * nothing (autocomplete completes, it does not correct). An empty query lists documents in
 * URN order.
 */
export async function autocompleteQuery(
  ctx: QueryContext,
  req: AutocompleteRequest,
): Promise<AutocompleteResultPage> {
  const fields = req.fields.filter((f) => ctx.catalog.isAnalysed(f))
  if (req.limit <= 0 || fields.length === 0) return { suggestions: [] }
  const scope = scopeFilter(req.entityTypes, req.includeRemoved)
  const resolver = new LookupResolver(ctx.backend, ctx.catalog, scope)
  const filter = await resolveLookups(and(scope, translateFilter(req.filter, ctx.catalog)), (l) =>
    resolver.resolve(l),
  )
  if (isFalse(filter)) return { suggestions: [] }
  const rendered = render(filter)
  const words = queryWords(req.query)
  const q = words.map((w) => w.word).join(' ')
  const res = await ctx.backend.search(
    {
      q,
      ...(q
        ? { attributesToSearchOn: fields.map(textAttr), matchingStrategy: 'all' as const }
        : { sort: [`${ATTR.urn}:asc`] }),
      ...(rendered ? { filter: rendered } : {}),
      attributesToRetrieve: [ATTR.urn, ATTR.parts],
      page: 1,
      hitsPerPage: Math.min(MAX_CANDIDATES, Math.max(req.limit * 3, 30)),
    },
    'autocomplete',
  )
  const query = fold(req.query.trim())
  const ranked: Array<AutocompleteSuggestion & { rank: number; order: number }> = []
  for (const [order, c] of (res.hits as unknown as Candidate[]).entries()) {
    const doc = mergeContributions(JSON.parse(c._parts) as Record<string, DocumentFields>)
    const best = suggestion(doc, fields, words, query)
    if (best) ranked.push({ urn: c.urn, ...best, order })
  }
  ranked.sort((a, b) => a.rank - b.rank || a.order - b.order)
  return { suggestions: ranked.slice(0, req.limit).map(({ urn, text, field }) => ({ urn, text, field })) }
}
