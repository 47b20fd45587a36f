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
import { upTo } from './id-reads.js'
import { MatchStream } from './match-stream.js'
import { prefixForm } from './query-compiler.js'
import type { QueryContext } from './query-context.js'
import { scopeWhere } from './search-query.js'

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
    const inScope = ctx.facets.scope(req.entityTypes, req.includeRemoved)
    // The best fields are read only when the words can be in them (see EmptyReads).
    const empty = ctx.vocabulary.emptyReads
    const stream = (cols: string) =>
      new MatchStream(
        ctx,
        req,
        where,
        { sql: 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ?', params: [`{${cols}} : (${expr})`] },
        inScope,
        want * 2,
        empty.has(cols, expr),
      )
    const [top = 1, next = top] = tiers
    let picked: { best: number[]; others: number[] }
    if (tiers.length > 1) {
      const bestStream = stream(columns(top))
      picked = window(stream(columns()), bestStream, want)
      if (bestStream.done && bestStream.rows === 0 && req.filter.or.length === 0)
        empty.add(columns(top), expr)
    } else picked = single(stream(columns()), want)
    const { best, others } = picked
    const scored: Array<[number, number]> = [
      ...best.map((id): [number, number] => [id, top]),
      ...others.map((id): [number, number] => [id, next]),
    ]
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
    const doc = mergeContributions(onlyFields(ctx.codec.decode(c.parts), fields))
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

/** Candidates of one boost tier: the first `want` matches. */
function single(all: MatchStream, want: number): { best: number[]; others: number[] } {
  all.fill(want)
  return { best: all.ids.slice(0, want), others: [] }
}

/**
 * Candidates of two tiers, as if the first AUTOCOMPLETE_SCAN matches (`all`) were read whole:
 * the first `want` of them in the best fields (`best`, a subset of `all`), then the first
 * others. The window of `all` grows step by step and stops as soon as it holds `want` matches
 * in the best fields (the answer is then decided) or reaches AUTOCOMPLETE_SCAN or the end, so
 * a broad prefix reads a few dozen ids, not thousands, and the best fields are read only up to
 * the window's last id.
 */
function window(all: MatchStream, best: MatchStream, want: number): { best: number[]; others: number[] } {
  for (;;) {
    all.next(AUTOCOMPLETE_SCAN - all.ids.length)
    const scanned = all.ids.length >= AUTOCOMPLETE_SCAN || all.done
    const last = all.ids[Math.min(all.ids.length, AUTOCOMPLETE_SCAN) - 1]
    if (last === undefined) {
      if (scanned) return { best: [], others: [] }
      continue
    }
    best.through(last)
    const inWindow = upTo(best.ids, last)
    if (inWindow >= want) return { best: best.ids.slice(0, want), others: [] }
    if (!scanned) continue
    const chosen = best.ids.slice(0, inWindow)
    const seen = new Set(chosen)
    const others: number[] = []
    for (const id of all.ids.slice(0, AUTOCOMPLETE_SCAN)) {
      if (chosen.length + others.length >= want) break
      if (!seen.has(id)) others.push(id)
    }
    return { best: chosen, others }
  }
}
