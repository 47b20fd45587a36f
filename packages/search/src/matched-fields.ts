import { fold, indexWords, queryWords, urnKeys, valueText } from './analysis.js'
import { expandField } from './filters.js'
import type { DocumentFields, MatchedField } from './port.js'
import type { QueryNode } from './query-parser.js'

const MAX_MATCHED = 10

/**
 * Which fields of a hit matched the query, for `matchedFields`: free words are checked against
 * the default fields (a word matches an indexed word it starts, or one of its typo variants);
 * `field:value` clauses name their field. `variants` gives the typo variants used for a word.
 */
export function matchedFields(
  doc: DocumentFields,
  query: QueryNode,
  defaultFields: readonly string[],
  variants: (word: string) => readonly string[] = () => [],
): MatchedField[] {
  const words: string[] = []
  const clauses: Array<{ field: string; value: string; prefix: boolean }> = []
  collect(query, words, clauses)
  const out: MatchedField[] = []
  const seen = new Set<string>()
  const add = (name: string, value: string) => {
    const id = `${name}\u0000${value}`
    if (seen.has(id) || out.length >= MAX_MATCHED) return
    seen.add(id)
    out.push({ name, value })
  }
  if (words.length > 0) {
    const wanted = words.map((w) => ({ word: w, typos: new Set(variants(w)) }))
    for (const field of defaultFields) {
      for (const value of doc[field] ?? []) {
        const tokens = indexWords(valueText(String(value)))
        const hit = wanted.some(({ word, typos }) => tokens.some((t) => t.startsWith(word) || typos.has(t)))
        if (hit) add(field, String(value))
      }
    }
  }
  for (const c of clauses) {
    const target = fold(c.value)
    for (const field of c.field === 'urn' ? [] : expandField(c.field)) {
      for (const value of doc[field] ?? []) {
        const s = String(value)
        const folded = fold(s)
        const keys = [folded, ...urnKeys(s), ...indexWords(valueText(s))]
        if (keys.some((k) => (c.prefix ? k.startsWith(target) : k === target))) add(field, s)
      }
    }
  }
  return out
}

function collect(
  node: QueryNode,
  words: string[],
  clauses: Array<{ field: string; value: string; prefix: boolean }>,
): void {
  switch (node.kind) {
    case 'words':
      for (const w of queryWords(node.text)) words.push(w.word)
      return
    case 'field':
      clauses.push({ field: node.field, value: node.value, prefix: node.prefix })
      return
    case 'bool':
      for (const n of [...node.must, ...node.should]) collect(n, words, clauses)
      return
    case 'all':
      return
  }
}
