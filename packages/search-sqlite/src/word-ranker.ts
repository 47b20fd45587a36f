import type { QueryNode } from '@catalog/search'
import { idsUpTo } from './id-reads.js'
import type { QueryCompiler } from './query-compiler.js'
import type { QueryContext } from './query-context.js'

type WordsNode = QueryNode & { kind: 'words' }

/** BM25's term-frequency saturation and length normalisation (FTS5's and Lucene's defaults). */
const K1 = 1.2
/** Score of a match through a typo variant only: below any exact or prefix match (as the SQL ranking). */
const TYPO_SCORE = 0.001
/** Bounds below this map document ids to slots through an array (4 bytes an id), above through a map. */
const DENSE_LIMIT = 1 << 18
/** Score taken off per word in a document's best fields: orders equal scores, never unequal ones. */
const SIZE_NUDGE = 1e-9

/**
 * The words of a query the ranker handles: one words node (a word, several, or a quoted
 * phrase), or a group of them with no NOT; undefined for anything else (fields, `*`, NOT).
 */
function rankableWords(node: QueryNode): WordsNode[] | undefined {
  if (node.kind === 'words') return [node]
  if (node.kind !== 'bool' || node.mustNot.length > 0) return undefined
  const all = [...node.must, ...node.should]
  return all.length > 0 && all.every((n) => n.kind === 'words') ? (all as WordsNode[]) : undefined
}

/**
 * Scores the matches of a query made of words, with ids up to `bound` (the rank window),
 * without FTS5's `bm25()`: that function weighs each phrase by reading every match of it in
 * the whole index (its IDF), and calls back per row, so at a million documents it costs more
 * than the rest of a search. Here each word is matched twice, as document ids only, each read
 * stopping at the window's bound: in the default fields of the best boost (a dataset's `id`,
 * `name`, `qualifiedName`: 10), then in all default fields (a match only there counts as one
 * in the next best boost: 1), and scored as BM25 does for one occurrence in a field of that boost:
 * `idf × w(k1 + 1) / (w + k1)` with `w` the boost and `idf = ln(1 + (N − n + 0.5) / (n + 0.5))`
 * (Lucene's), `n` the word's matches in the window, `N` the window's size. A document matching
 * a word only through a typo variant scores {@link TYPO_SCORE} for it. Rows are `[id, words
 * matched, score]`, ranked as the SQL ranking ranks them: more words first, then score. The
 * reads stop as soon as the page (`need` rows) is decided; rows are then only given for the
 * documents that can be on it. Returns undefined for a query it does not handle (the caller
 * then scores with `bm25()`).
 */
export function rankWords(
  ctx: QueryContext,
  compiler: QueryCompiler,
  node: QueryNode,
  bound: number,
  /** The end of the page (`start + count`), and whether an id is a counted hit. */
  need: number,
  counted: (id: number) => boolean,
): Array<[number, number, number]> | undefined {
  const words = rankableWords(node)
  if (!words) return undefined
  // A word in columns it is in no document of (`team` in the names) is not read again: FTS5
  // would walk its whole list to find that out (see EmptyReads).
  const empty = ctx.vocabulary.emptyReads
  const read = (columns: string, expr: string) =>
    empty.has(columns, expr)
      ? []
      : idsUpTo(
          ctx.statement,
          'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ?',
          [`{${columns}} : (${expr})`],
          bound,
          () => empty.add(columns, expr),
        )
  const [top, next] = compiler.boostTiers()
  if (!top) return undefined
  const forms = words.flatMap((w) => compiler.wordForms(w) ?? []).slice(0, 30)
  const saturated = (w: number) => (w * (K1 + 1)) / (w + K1)
  const t = new IdTable(bound)
  const add = (id: number, score: number) => {
    const s = t.slot(id)
    t.terms[s] = (t.terms[s] as number) + 1
    t.scores[s] = (t.scores[s] as number) + score
  }
  // Equal scores go to the document with fewer words in its best fields (BM25's length norm:
  // `orders` before `orders_daily_archive`), by a nudge far below any difference of scores.
  const shorter = (id: number) => -ctx.facets.bestSize(id) * SIZE_NUDGE
  const rows = () =>
    t.ids.flatMap(
      (id, s): Array<[number, number, number]> =>
        (t.terms[s] as number) > 0 ? [[id, t.terms[s] as number, (t.scores[s] as number) + shorter(id)]] : [],
    )

  // 1. Every word in the best fields: the highest score there is, the same for each such
  // document. Enough of them fill the page (shortest best fields first, then in id order).
  const all = (1 << forms.length) - 1
  const tops = forms.map((f, i) => {
    const found = read(top.columns, f.exact)
    for (const id of found) {
      const s = t.slot(id)
      t.inTop[s] = (t.inTop[s] as number) | (1 << i)
    }
    return found
  })
  const allTop = (tops[0] ?? []).filter((id) => t.inTop[t.slot(id)] === all && counted(id))
  if (allTop.length >= need) return allTop.map((id) => [id, forms.length, 1 + shorter(id)])

  // 2. Each word in all default fields; a match outside the best ones scores as the next boost.
  forms.forEach((f, i) => {
    const found = next ? read(compiler.columns, f.exact) : (tops[i] as number[])
    const idf = Math.log(1 + (Math.max(bound, found.length) - found.length + 0.5) / (found.length + 0.5))
    const [best, other] = [idf * saturated(top.boost), idf * saturated(next?.boost ?? top.boost)]
    for (const id of found) {
      const s = t.slot(id)
      t.exact[s] = (t.exact[s] as number) | (1 << i)
      add(id, ((t.inTop[s] as number) & (1 << i)) !== 0 ? best : other)
    }
  })
  // 3. Typo-only matches: a document matching a word only so scores TYPO_SCORE for it. Skipped
  // for one word (they all score the same and follow in id order, where the caller puts the
  // matches it has no row for), and when the page is already decided: enough documents match
  // every word exactly, and the page's last one outscores what any other document could reach.
  if (forms.length === 1) return rows()
  const full: number[] = []
  // A document can only gain TYPO_SCORE per word it misses exactly.
  let withTypo = forms.length * TYPO_SCORE
  t.ids.forEach((id, s) => {
    const n = t.terms[s] as number
    if (n === 0 || !counted(id)) return
    if (n === forms.length) full.push(t.scores[s] as number)
    else withTypo = Math.max(withTypo, (t.scores[s] as number) + (forms.length - n) * TYPO_SCORE)
  })
  if (
    full.length >= need &&
    (full.sort((a, b) => b - a)[need - 1] as number) > withTypo + 0xffff * SIZE_NUDGE
  )
    return rows()
  forms.forEach((f, i) => {
    if (!f.typo) return
    for (const id of read(compiler.columns, f.typo))
      if (((t.exact[t.slot(id)] as number) & (1 << i)) === 0) add(id, TYPO_SCORE)
  })
  return rows()
}

/**
 * Per-document state of a ranking (bit i: word i matches in the best fields, `inTop`, or in any
 * default field, `exact`; words matched; score), one slot per document id met. Ids up to the
 * bound map to slots through an array when the bound is small, else through a map (a rare word
 * can put the bound near the last id of a large index, and most ids are never met).
 */
export class IdTable {
  readonly ids: number[] = []
  readonly inTop: number[] = []
  readonly exact: number[] = []
  readonly terms: number[] = []
  readonly scores: number[] = []
  private readonly dense: Int32Array | undefined
  private readonly sparse = new Map<number, number>()

  constructor(bound: number) {
    this.dense = bound < DENSE_LIMIT ? new Int32Array(bound + 1).fill(-1) : undefined
  }

  slot(id: number): number {
    let s = this.dense ? (this.dense[id] as number) : (this.sparse.get(id) ?? -1)
    if (s < 0) {
      s = this.ids.length
      this.ids.push(id)
      this.inTop.push(0)
      this.exact.push(0)
      this.terms.push(0)
      this.scores.push(0)
      if (this.dense) this.dense[id] = s
      else this.sparse.set(id, s)
    }
    return s
  }
}
