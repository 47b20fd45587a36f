import type { Vocabulary } from './vocabulary.js'

/** The vocabulary look-ups a query makes: prefix completions and typo variants. */
export type WordLookups = Pick<Vocabulary, 'completions' | 'variants' | 'emptyReads'>

/**
 * The look-ups of one query, each answered once: a search compiles its query several times
 * (counting, ranking, matched fields), and a typo look-up compares the word with every indexed
 * word of a near length. Made per query, so words written since are seen by the next one.
 */
export function memoizedLookups(vocabulary: WordLookups): WordLookups {
  const completions = new Map<string, string[] | undefined>()
  const variants = new Map<string, string[]>()
  return {
    emptyReads: vocabulary.emptyReads,
    completions(prefix, max) {
      const key = `${max}\u0000${prefix}`
      if (!completions.has(key)) completions.set(key, vocabulary.completions(prefix, max))
      return completions.get(key)
    },
    variants(word, maxEdits) {
      const key = `${maxEdits}\u0000${word}`
      let found = variants.get(key)
      if (!found) {
        found = vocabulary.variants(word, maxEdits)
        variants.set(key, found)
      }
      return found
    },
  }
}
