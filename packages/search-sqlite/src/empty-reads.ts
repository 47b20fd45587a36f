/** Expressions remembered at most; past that the memory starts again empty. */
const MAX_ENTRIES = 4096

/**
 * Reads of words restricted to some FTS columns that match nothing in the whole index. FTS5
 * reads a word restricted to columns by walking the word's list until a row matches in those
 * columns, and neither a LIMIT nor a rowid bound stops that walk: a common word that is in no
 * best field (`team`, in every description and no name) costs a walk of its whole list at every
 * query, a cost that grows with the catalog. A read that found nothing is remembered here, for
 * expressions of whole ASCII words only (no prefix `*`), and forgotten as soon as one of its words is
 * written into one of its columns ({@link wrote}), so a remembered answer is always current.
 */
export class EmptyReads {
  /** Remembered reads (`columns` NUL `expression`), each with its columns. */
  private readonly entries = new Map<string, ReadonlySet<string>>()
  /** The remembered reads of each word. */
  private readonly byWord = new Map<string, Set<string>>()

  /** True when the read of `expr` in `columns` (FTS column names, space-separated) is known to match nothing. */
  has(columns: string, expr: string): boolean {
    return this.entries.has(`${columns}\u0000${expr}`)
  }

  /** Remembers that the read of `expr` in `columns` matched nothing (ignored for a prefix expression). */
  add(columns: string, expr: string): void {
    if (expr.includes('*')) return
    const words = [...expr.matchAll(/"([^"]*)"/g)].flatMap((m) => (m[1] ?? '').split(' ').filter(Boolean))
    // Plain ASCII words only: such a word is sure to be written as the very word FTS5 matches.
    if (words.length === 0 || !words.every((w) => /^[a-z0-9]+$/.test(w))) return
    if (this.entries.size >= MAX_ENTRIES || this.byWord.size >= 4 * MAX_ENTRIES) this.reset()
    const key = `${columns}\u0000${expr}`
    this.entries.set(key, new Set(columns.split(' ')))
    for (const w of words) {
      let keys = this.byWord.get(w)
      if (!keys) {
        keys = new Set()
        this.byWord.set(w, keys)
      }
      keys.add(key)
    }
  }

  /** Forgets the remembered reads that `words`, now written into `column`, would match. */
  wrote(column: string, words: readonly string[]): void {
    if (this.entries.size === 0) return
    for (const w of words) {
      const keys = this.byWord.get(w)
      if (!keys) continue
      for (const key of keys) if (this.entries.get(key)?.has(column)) this.entries.delete(key)
    }
  }

  /** Forgets everything (the index was wiped, or another connection wrote it). */
  reset(): void {
    this.entries.clear()
    this.byWord.clear()
  }
}
