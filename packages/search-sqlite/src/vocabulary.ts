import { editDistance } from '@catalog/search'

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

  constructor(private readonly load: () => Iterable<string>) {}

  /** Records words written to the index (a no-op until the vocabulary is loaded). */
  add(words: Iterable<string>): void {
    if (!this.byLength) return
    for (const w of words) this.insert(this.byLength, w)
  }

  /** Forgets everything (after the index was wiped). */
  reset(): void {
    this.byLength = undefined
    this.terms = 0
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
    }
  }
}
