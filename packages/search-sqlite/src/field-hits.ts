import { expandField, fold, isUrn, queryWords, type SearchRequest, urnKeys } from '@catalog/search'
import { ftsColumn } from './ddl.js'
import { concatIds } from './id-reads.js'
import type { QueryContext } from './query-context.js'

type FieldNode = SearchRequest['query'] & { kind: 'field' }

/** SQLite's NOCASE: only ASCII letters fold. */
const asciiLower = (s: string) => s.replace(/[A-Z]+/g, (m) => m.toLowerCase())

/**
 * The counted hits (the first `totalHitsCap` in scope, ascending) of a lone exact
 * `field:value` on facet fields, from memory: the posting lists of the field's values that
 * equal the value (SQLite's NOCASE) or, for URNs, answer to it (`tags:PII`, `platform:kafka`),
 * merged with the matches of the value's words in the field's FTS column (read up to the cap).
 * The same hits as the SQL of {@link QueryCompiler}, which serves every other case (undefined
 * here): a prefix, a filter, `urn:`, an exact field the facet cache does not hold, or FTS
 * matches past the cap that the scope would need.
 */
export function fieldHits(ctx: QueryContext, req: SearchRequest, node: FieldNode): number[] | undefined {
  if (node.prefix || node.field === 'urn' || req.filter.or.length > 0) return undefined
  const lower = asciiLower(node.value)
  const folded = fold(node.value)
  const lists: ArrayLike<number>[] = []
  const columns: string[] = []
  for (const name of expandField(node.field)) {
    if (ctx.isExact(name) && ctx.fieldId(name) !== undefined) {
      if (!ctx.facets.fields.has(name)) return undefined
      for (const [vid, value] of ctx.facets.valuesOf(name))
        if (asciiLower(value) === lower || (isUrn(value) && urnKeys(value).includes(folded)))
          lists.push(ctx.facets.posting(vid))
    }
    if (ctx.ftsFields.includes(name)) columns.push(ftsColumn(name))
  }
  const cap = ctx.totalHitsCap
  const words = queryWords(node.value).map((w) => w.word)
  let ftsLast = Number.POSITIVE_INFINITY
  if (columns.length > 0 && words.length > 0) {
    const fts = concatIds(ctx.statement, 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ? LIMIT ?', [
      `{${columns.join(' ')}} : ("${words.join(' ')}")`,
      cap,
    ])
    // Past the last FTS match read, more may exist: the merge must not go beyond it.
    if (fts.length === cap) ftsLast = fts[fts.length - 1] as number
    lists.push(fts)
  }
  const inScope = ctx.facets.scope(req.entityTypes, req.includeRemoved)
  const at = lists.map(() => 0)
  const out: number[] = []
  for (let previous = -1; out.length < cap; ) {
    let next = Number.POSITIVE_INFINITY
    for (let k = 0; k < lists.length; k++) {
      const list = lists[k] as ArrayLike<number>
      let i = at[k] as number
      while (i < list.length && (list[i] as number) <= previous) i++
      at[k] = i
      if (i < list.length && (list[i] as number) < next) next = list[i] as number
    }
    if (next === Number.POSITIVE_INFINITY) break
    if (next > ftsLast) return undefined
    if (inScope(next)) out.push(next)
    previous = next
  }
  return out
}
