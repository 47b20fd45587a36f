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

interface Candidate {
  urn: string
  parts: string
  score: number
}

/**
 * Autocomplete: documents whose autocomplete fields hold every query word as a word prefix
 * (FTS5 prefix match, bm25 with the fields' boosts), then one suggestion per document: the
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
    candidates = ctx
      .statement(
        `SELECT d.urn, d.parts, -bm25(fts, ${weights}) AS score FROM fts JOIN docs d ON d.id = fts.rowid WHERE fts MATCH ? AND ${where.sql} ORDER BY score DESC LIMIT ?`,
      )
      .all(`{${fields.map(ftsColumn).join(' ')}} : (${expr})`, ...where.params, want) as Candidate[]
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
