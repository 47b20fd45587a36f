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
import { scopeWhere } from './search-query.js'
import type { QueryContext } from './sqlite-search-index.js'

const MAX_CANDIDATES = 300
/** Matches an autocomplete scores at most (the first, in index order). */
const AUTOCOMPLETE_SCAN = 2_000

interface Candidate {
  urn: string
  parts: string
  score: number
}

/**
 * Autocomplete: documents whose autocomplete fields hold every query word as a word prefix
 * (FTS5 prefix match; the first AUTOCOMPLETE_SCAN matches in index order scored by bm25 with
 * the fields' boosts), then one suggestion per document: the
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
    const weights = ctx.ftsFields.map((f) => String(boosts.get(f) ?? 0)).join(', ')
    const expr = words.map((w) => `"${w.word}" *`).join(' AND ')
    // Scores at most the first AUTOCOMPLETE_SCAN matches (index order), then reads the documents
    // of the best `want` only: a short prefix matches much of a large catalog.
    const scored = ctx
      .statement(
        `SELECT d.id, -bm25(fts, ${weights}) AS score FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ? AND ${where.sql} LIMIT ?`,
      )
      .raw()
      .all(`{${fields.map(ftsColumn).join(' ')}} : (${expr})`, ...where.params, AUTOCOMPLETE_SCAN) as Array<
      [number, number]
    >
    scored.sort((a, b) => b[1] - a[1] || a[0] - b[0])
    const best = scored.slice(0, want)
    const docs = new Map(
      (
        ctx
          .statement('SELECT id, urn, parts FROM docs WHERE id IN (SELECT value FROM json_each(?))')
          .raw()
          .all(JSON.stringify(best.map((r) => r[0]))) as Array<[number, string, string]>
      ).map((r) => [r[0], r]),
    )
    candidates = best.flatMap(([id, score]) => {
      const doc = docs.get(id)
      return doc ? [{ urn: doc[1], parts: doc[2], score }] : []
    })
  }
  const query = fold(req.query.trim())
  const ranked: Array<AutocompleteSuggestion & { rank: number; score: number }> = []
  for (const c of candidates) {
    const doc = mergeContributions(JSON.parse(c.parts) as Record<string, DocumentFields>)
    const best = suggestion(doc, fields, words, query)
    if (best) ranked.push({ urn: c.urn, ...best, score: c.score })
  }
  ranked.sort((a, b) => a.rank - b.rank || b.score - a.score || a.urn.localeCompare(b.urn))
  return {
    suggestions: ranked.slice(0, req.limit).map(({ urn, text, field }) => ({ urn, text, field })),
  }
}
