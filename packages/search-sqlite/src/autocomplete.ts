import {
  type AutocompleteRequest,
  type AutocompleteResultPage,
  type AutocompleteSuggestion,
  type DocumentFields,
  fold,
  mergeContributions,
  queryWords,
  type SearchSchema,
  suggestion,
} from '@catalog/search'
import { ftsColumn } from './ddl.js'
import { prefixForm } from './query-compiler.js'
import { scopedIds, scopeWhere } from './search-query.js'
import type { QueryContext } from './sqlite-search-index.js'

const MAX_CANDIDATES = 300
/** Matches (index order) an autocomplete looks at, at most. */
const AUTOCOMPLETE_SCAN = 2_000

interface Candidate {
  urn: string
  parts: string
  score: number
}

/**
 * Autocomplete: documents whose autocomplete fields hold every query word as a word prefix
 * (FTS5 prefix match, within the first AUTOCOMPLETE_SCAN matches in index order; the first ones
 * in the fields of the best boost, then the first others), then one suggestion per document: the
 * first field value that matches, values starting with the whole query ranked first.
 */
export function autocompleteQuery(
  ctx: QueryContext,
  schema: SearchSchema,
  req: AutocompleteRequest,
): AutocompleteResultPage {
  if (req.limit <= 0) return { suggestions: [] }
  const fields = req.fields.filter((f) => ctx.ftsFields.includes(f))
  const words = queryWords(req.query)
  const where = scopeWhere(ctx, req.entityTypes, req.includeRemoved, req.filter)
  const want = Math.min(MAX_CANDIDATES, Math.max(req.limit * 3, 30))
  let candidates: Candidate[]
  if (fields.length === 0) return { suggestions: [] }
  if (words.length === 0) {
    candidates = ctx
      .statement(`SELECT d.urn, d.parts, 0.0 AS score FROM docs d WHERE ${where.sql} ORDER BY d.urn LIMIT ?`)
      .all(...where.params, want) as Candidate[]
  } else {
    const boosts = new Map<string, number>()
    for (const type of req.entityTypes) {
      const spec = schema.entity(type)
      for (const f of fields) boosts.set(f, Math.max(boosts.get(f) ?? 0, spec?.fields.get(f)?.boost ?? 1))
    }
    // Candidates: the first matches (index order) in the fields of the best boost, then, if too
    // few, the first other matches, scored as the next boost (no bm25: it reads every match of
    // a short prefix in the whole index).
    const tiers = [...new Set(boosts.values())].sort((a, b) => b - a)
    const columns = (boost?: number) =>
      fields
        .filter((f) => boost === undefined || boosts.get(f) === boost)
        .map(ftsColumn)
        .join(' ')
    const expr = words.map((w) => prefixForm(ctx.vocabulary, w.word)).join(' AND ')
    // The first `limit` matches in scope, ascending, those past `bound` left out. The bound is
    // not given to FTS5, which would read the whole list past it: the LIMIT stops the read.
    const read = (cols: string, bound: number, limit: number) =>
      scopedIds(
        ctx,
        req,
        where,
        { sql: 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ?', params: [`{${cols}} : (${expr})`] },
        limit,
      ).filter((id) => id <= bound)
    // The first AUTOCOMPLETE_SCAN matches in scope, then those of them in the best fields: a
    // rare combination of words stops at the end of the first read, not at the index's end.
    const matches = read(columns(), Number.MAX_SAFE_INTEGER, AUTOCOMPLETE_SCAN)
    const [top = 1, next = top] = tiers
    const last = matches.at(-1)
    const best =
      last === undefined ? [] : tiers.length > 1 ? read(columns(top), last, want) : matches.slice(0, want)
    const scored: Array<[number, number]> = best.map((id) => [id, top])
    const seen = new Set(best)
    for (const id of matches) {
      if (scored.length >= want) break
      if (!seen.has(id)) scored.push([id, next])
    }
    scored.sort((a, b) => b[1] - a[1] || a[0] - b[0])
    const docs = new Map(
      (
        ctx
          .statement('SELECT id, urn, parts FROM docs WHERE id IN (SELECT value FROM json_each(?))')
          .raw()
          .all(JSON.stringify(scored.map((r) => r[0]))) as Array<[number, string, string]>
      ).map((r) => [r[0], r]),
    )
    candidates = scored.flatMap(([id, score]) => {
      const doc = docs.get(id)
      return doc ? [{ urn: doc[1], parts: doc[2], score }] : []
    })
  }
  const query = fold(req.query.trim())
  const ranked: Array<AutocompleteSuggestion & { rank: number; score: number }> = []
  for (const c of candidates) {
    const doc = mergeContributions(onlyFields(JSON.parse(c.parts) as Record<string, DocumentFields>, fields))
    const best = suggestion(doc, fields, words, query)
    if (best) ranked.push({ urn: c.urn, ...best, score: c.score })
  }
  ranked.sort((a, b) => a.rank - b.rank || b.score - a.score || a.urn.localeCompare(b.urn))
  return {
    suggestions: ranked.slice(0, req.limit).map(({ urn, text, field }) => ({ urn, text, field })),
  }
}

/** Each aspect's contribution cut to the given fields (merging the rest would be wasted). */
function onlyFields(
  parts: Record<string, DocumentFields>,
  fields: readonly string[],
): Record<string, DocumentFields> {
  const out: Record<string, DocumentFields> = {}
  for (const [aspect, part] of Object.entries(parts)) {
    const kept: Record<string, DocumentFields[string]> = {}
    for (const f of fields) if (part[f]) kept[f] = part[f]
    out[aspect] = kept
  }
  return out
}
