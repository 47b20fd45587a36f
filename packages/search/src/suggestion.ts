import { isUrn } from '@catalog/core'
import { fold, indexWords, type queryWords, valueText } from './analysis.js'
import type { DocumentFields } from './port.js'

/** What a document suggests for an autocomplete query. */
export interface Suggestion {
  readonly text: string
  readonly field: string
  /** Lower is better: values starting with the whole query first, then by field order. */
  readonly rank: number
}

/**
 * The value a document suggests for autocomplete: the best-ranked value, among `fields` in
 * order, holding every query word as a prefix of one of its words. Shared by every adapter so
 * suggestions read the same whatever the index.
 */
export function suggestion(
  doc: DocumentFields,
  fields: readonly string[],
  words: ReturnType<typeof queryWords>,
  query: string,
): Suggestion | undefined {
  let best: Suggestion | undefined
  for (const [i, field] of fields.entries()) {
    for (const raw of doc[field] ?? []) {
      // (Checked for the prefix first: isUrn throws and catches an error for any other string.)
      const text =
        typeof raw === 'string' && raw.startsWith('urn:li:') && isUrn(raw) ? valueText(raw) : String(raw)
      const tokens = indexWords(text)
      if (!words.every((w) => tokens.some((t) => t.startsWith(w.word)))) continue
      const rank = (fold(text).startsWith(query) ? 0 : 1000) + i
      if (!best || rank < best.rank) best = { text, field, rank }
    }
  }
  return best
}
