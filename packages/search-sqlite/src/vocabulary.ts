import { editDistance } from '@catalog/search'
import { EmptyReads } from './empty-reads.js'

const MAX_VARIANTS = 24
/** Words the first step of the load reads; each next one grows or shrinks to take a few ms. */
const FIRST_PAGE = 256
const MAX_PAGE = 16_384

/**
 * The index's words, by length, for typo candidates. Loaded once from the FTS vocabulary, a page
 * at a time ({@link warm}) while the index is idle after it opens, or at once by the first query
 * that needs it before then ({@link queryLoads} counts those); then kept current by {@link add}
 * as documents are written. Words that left the
 * index may linger: a variant nothing matches any more only costs an empty lookup. Numbers
 * are left out (no typo matching on them).
 */
export class Vocabulary {
  private byLength: Map<number, Set<string>> | undefined
  private terms = 0
  /** Every word, sorted, for prefix look-ups; words added since are in {@link recent}. */
  private sorted: string[] | undefined
  private recent = new Set<string>()
  /** Column-restricted reads known to match nothing, kept current by {@link add}. */
  readonly emptyReads = new EmptyReads()
  /** A load under way: the words read so far (in the index's order) and the last one. */
  private loading:
    | { map: Map<number, Set<string>>; words: string[]; after: string; pageSize: number }
    | undefined
  /** Loads (or ends of loads) that a query had to do because the words were not ready. */
  queryLoads = 0

  constructor(
    /** Up to `limit` indexed words after `after`, in the index's order, each with its number of documents. */
    private readonly page: (after: string, limit: number) => ReadonlyArray<readonly [string, number]>,
  ) {}

  /** The two words (plain ASCII letters) in the most documents when the words were loaded. */
  get common(): readonly string[] {
    return this.top.map((t) => t[0])
  }
  private top: Array<readonly [string, number]> = []

  /**
   * Records words written to the index, in FTS column `column` when given (the vocabulary
   * itself is a no-op until loaded; the {@link emptyReads} they would match are forgotten).
   */
  add(words: readonly string[], column?: string): void {
    if (column !== undefined) this.emptyReads.wrote(column, words)
    const map = this.byLength ?? this.loading?.map
    if (!map) return
    // Words written during a load are not in its sorted list: `recent` holds them.
    for (const w of words) if (this.insert(map, w) && (this.sorted || this.loading)) this.recent.add(w)
  }

  /** True once the words are loaded. */
  get ready(): boolean {
    return this.byLength !== undefined
  }

  /**
   * Loads the words a page at a time until `deadline` (a `performance.now()` time) has passed,
   * at least one page; true once they are all loaded.
   */
  warm(deadline: number): boolean {
    if (this.byLength) return true
    this.loading ??= { map: new Map(), words: [], after: '', pageSize: FIRST_PAGE }
    const l = this.loading
    // Needed now (by a query): the rest in the largest pages.
    if (deadline === Number.POSITIVE_INFINITY) l.pageSize = MAX_PAGE
    for (;;) {
      const started = performance.now()
      const size = l.pageSize
      const page = this.page(l.after, size)
      // FTS5 counts each word's documents as it lists it: a page of common words takes longer.
      const ms = performance.now() - started
      if (deadline !== Number.POSITIVE_INFINITY) {
        if (ms < 2) l.pageSize = Math.min(MAX_PAGE, size * 2)
        else if (ms > 8) l.pageSize = Math.max(16, size >> 1)
      }
      for (const [w, docs] of page) {
        if (!this.insert(l.map, w)) continue
        l.words.push(w)
        if (/^[a-z]+$/.test(w) && (this.top.length < 2 || docs > (this.top[1]?.[1] ?? 0)))
          this.top = [...this.top, [w, docs] as const].sort((a, b) => b[1] - a[1]).slice(0, 2)
      }
      if (page.length < size) break
      l.after = (page[page.length - 1] as readonly [string, number])[0]
      if (performance.now() >= deadline) return false
    }
    // Read in the index's (UTF-8) order: nearly sorted already, so this sort is quick.
    this.sorted = l.words.sort()
    this.byLength = l.map
    this.loading = undefined
    return true
  }

  /** Forgets everything (after the index was wiped). */
  reset(): void {
    this.byLength = undefined
    this.terms = 0
    this.sorted = undefined
    this.recent = new Set()
    this.loading = undefined
    this.top = []
    this.emptyReads.reset()
  }

  /**
   * The indexed words starting with `prefix` (itself included), or undefined when there are
   * more than `max` of them or the vocabulary cannot tell: a prefix under 3 characters, made of
   * digits only, or not plain ASCII (the vocabulary leaves out short words and numbers, and
   * only ASCII is sure to split into the same words as the index's tokenizer).
   */
  completions(prefix: string, max: number): string[] | undefined {
    if (prefix.length < 3 || /^\p{N}+$/u.test(prefix) || !/^[a-z0-9]+$/.test(prefix)) return undefined
    const byLength = this.loaded()
    if (!this.sorted || this.recent.size > 4096) {
      this.sorted = [...byLength.values()].flatMap((set) => [...set]).sort()
      this.recent = new Set()
    }
    const out: string[] = []
    let lo = 0
    let hi = this.sorted.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.sorted[mid] as string) < prefix) lo = mid + 1
      else hi = mid
    }
    for (let i = lo; i < this.sorted.length && (this.sorted[i] as string).startsWith(prefix); i++) {
      if (out.length === max) return undefined
      out.push(this.sorted[i] as string)
    }
    for (const w of this.recent) {
      if (!w.startsWith(prefix) || out.includes(w)) continue
      if (out.length === max) return undefined
      out.push(w)
    }
    return out
  }

  /**
   * Indexed words within `maxEdits` of `word` (not `word` itself, nor words it is a prefix
   * of, which prefix matching finds anyway), closest first.
   */
  variants(word: string, maxEdits: number): string[] {
    if (maxEdits <= 0) return []
    const byLength = this.loaded()
    const found: Array<{ term: string; d: number }> = []
    for (let len = word.length - maxEdits; len <= word.length + maxEdits; len++) {
      for (const term of byLength.get(len) ?? []) {
        if (term.startsWith(word)) continue
        const d = editDistance(word, term, maxEdits)
        if (d <= maxEdits && d > 0) found.push({ term, d })
      }
    }
    found.sort((a, b) => a.d - b.d || a.term.localeCompare(b.term))
    return found.slice(0, MAX_VARIANTS).map((f) => f.term)
  }

  /** Number of words held (0 before the first load), and a rough size in bytes. */
  size(): { terms: number; bytes: number } {
    return { terms: this.terms, bytes: this.terms * 56 }
  }

  private loaded(): Map<number, Set<string>> {
    if (!this.byLength) {
      this.queryLoads++
      this.warm(Number.POSITIVE_INFINITY)
    }
    return this.byLength as Map<number, Set<string>>
  }

  /** Adds a word that is long enough and not a number; true when it is new. */
  private insert(map: Map<number, Set<string>>, w: string): boolean {
    if (w.length < 3) return false
    let set = map.get(w.length)
    // A word already held is the common case (every write repeats words): no pattern test for it.
    if (set?.has(w) || /^\p{N}+$/u.test(w)) return false
    if (!set) {
      set = new Set()
      map.set(w.length, set)
    }
    set.add(w)
    this.terms++
    return true
  }
}
