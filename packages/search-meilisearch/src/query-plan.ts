import { InvalidInputError } from '@catalog/core'
import { type QueryNode, queryWords } from '@catalog/search'
import { and, type FilterExpr, isFalse, not, or, TRUE } from './filter-expr.js'
import { fieldClause } from './filter-translator.js'

/** Most alternatives one query may expand to (each one is a Meilisearch query). */
export const MAX_BRANCHES = 16

/** Words searched together: all of them (the last one as a prefix), or an exact phrase. */
export interface TextAtom {
  readonly words: readonly string[]
  readonly phrase: boolean
}

/**
 * One alternative of a query: documents holding every text atom, none of the negated ones,
 * and passing the filter. A query is an OR of branches; a document matching more branches
 * matched more of the query's clauses and ranks first.
 */
export interface Branch {
  readonly texts: readonly TextAtom[]
  readonly negated: readonly TextAtom[]
  readonly filter: FilterExpr
}

const ALL: Branch = { texts: [], negated: [], filter: TRUE }

/**
 * Plans a parsed query as an OR of {@link Branch}es (disjunctive normal form): free words
 * and phrases become Meilisearch `q` terms, `field:value` clauses become filters, `bool`
 * nodes combine them (every `must`, one `should` at least, no `mustNot`). Branches with the
 * same text merge (their filters OR-ed), so field-only queries and `text + (a OR b)` stay one
 * Meilisearch query; free words joined by OR (`orders daily`) stay apart, and the search
 * unions them, ranking documents that match more of them first. More than
 * {@link MAX_BRANCHES} alternatives is an {@link InvalidInputError}.
 */
export function planQuery(node: QueryNode): Branch[] {
  const merged = new Map<string, { texts: TextAtom[]; negated: TextAtom[]; filters: FilterExpr[] }>()
  for (const b of compile(node)) {
    const key = JSON.stringify([b.texts, b.negated])
    const seen = merged.get(key)
    if (seen) seen.filters.push(b.filter)
    else merged.set(key, { texts: [...b.texts], negated: [...b.negated], filters: [b.filter] })
  }
  return [...merged.values()]
    .map((m) => ({ texts: m.texts, negated: m.negated, filter: or(...m.filters) }))
    .filter((b) => !isFalse(b.filter))
}

/**
 * The Meilisearch `q` of a branch: negated terms (`-word`, `-"a phrase"`), then phrases,
 * then plain words, so the last plain word is the one Meilisearch matches as a prefix.
 */
export function renderQ(branch: Branch): string {
  const term = (a: TextAtom) => (a.phrase || a.words.length > 1 ? `"${a.words.join(' ')}"` : a.words[0])
  return [
    ...branch.negated.map((a) => `-${term(a)}`),
    ...branch.texts.filter((a) => a.phrase).map(term),
    ...branch.texts.filter((a) => !a.phrase).map((a) => a.words.join(' ')),
  ].join(' ')
}

function compile(node: QueryNode): Branch[] {
  switch (node.kind) {
    case 'all':
      return [ALL]
    case 'words': {
      const words = queryWords(node.text).map((w) => w.word)
      if (words.length === 0) return []
      return [{ texts: [{ words, phrase: node.quoted }], negated: [], filter: TRUE }]
    }
    case 'field':
      return [{ texts: [], negated: [], filter: fieldClause(node.field, node.value, node.prefix) }]
    case 'bool': {
      let out: Branch[] = [ALL]
      for (const m of node.must) out = product(out, compile(m))
      if (node.should.length > 0) out = product(out, node.should.flatMap(compile))
      for (const n of node.mustNot) out = product(out, negate(compile(n)))
      return out
    }
  }
}

/** AND of two ORs of branches. */
function product(a: readonly Branch[], b: readonly Branch[]): Branch[] {
  const out: Branch[] = []
  for (const x of a)
    for (const y of b) {
      const filter = and(x.filter, y.filter)
      if (isFalse(filter)) continue
      out.push({ texts: [...x.texts, ...y.texts], negated: [...x.negated, ...y.negated], filter })
    }
  if (out.length > MAX_BRANCHES)
    throw new InvalidInputError(
      `The query has more than ${MAX_BRANCHES} alternatives for the Meilisearch index; simplify it`,
    )
  return out
}

/** NOT of an OR of branches: the AND of each branch negated (an OR of its negated parts). */
function negate(branches: readonly Branch[]): Branch[] {
  let out: Branch[] = [ALL]
  for (const b of branches) {
    const alternatives: Branch[] = [
      ...b.texts.map((t) => ({ texts: [], negated: [t], filter: TRUE })),
      ...b.negated.map((t) => ({ texts: [t], negated: [], filter: TRUE })),
    ]
    const f = not(b.filter)
    if (!(b.filter.k === 'const' && b.filter.value)) alternatives.push({ texts: [], negated: [], filter: f })
    out = product(out, alternatives)
  }
  return out
}
