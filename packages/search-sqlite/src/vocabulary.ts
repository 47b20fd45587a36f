import { editDistance } from '@catalog/search'
import { EmptyReads } from './empty-reads.js'

const MAX_VARIANTS = 24

/**
 * The index's words, by length, for typo candidates. Loaded once from the FTS vocabulary on
 * first use, then kept current by {@link add} as documents are written. Words that left the
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

  constructor(private readonly load: () => Iterable<string>) {}

  /**
   * Records words written to the index, in FTS column `column` when given (the vocabulary
   * itself is a no-op until loaded; the {@link emptyReads} they would match are forgotten).
   */
  add(words: readonly string[], column?: string): void {
    if (column !== undefined) this.emptyReads.wrote(column, words)
    if (!this.byLength) return
    for (const w of words) this.insert(this.byLength, w)
  }

  /** Forgets everything (after the index was wiped). */
  reset(): void {
    this.byLength = undefined
    this.terms = 0
    this.sorted = undefined
    this.recent = new Set()
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
      const map = new Map<number, Set<string>>()
      for (const w of this.load()) this.insert(map, w)
      this.byLength = map
    }
    return this.byLength
  }

  private insert(map: Map<number, Set<string>>, w: string): void {
    if (w.length < 3 || /^\p{N}+$/u.test(w)) return
    let set = map.get(w.length)
    if (!set) {
      set = new Set()
      map.set(w.length, set)
    }
    if (!set.has(w)) {
      set.add(w)
      this.terms++
      if (this.sorted) this.recent.add(w)
    }
  }
}
