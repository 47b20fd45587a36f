import type { DocumentFields } from '@catalog/search'
import type { ValueAnalysis } from './value-analysis.js'

/** An FTS row: the columns a document fills (ascending column numbers) and their texts. */
export interface FtsRow {
  readonly cols: number[]
  readonly texts: string[]
}

/**
 * The FTS row of a merged document: each analysed field's words (`ftsFields`, in column order),
 * one space apart. `visit` sees each filled column's words.
 */
export function ftsRowOf(
  fields: DocumentFields,
  ftsFields: readonly string[],
  analysis: ValueAnalysis,
  visit?: (col: number, field: string, words: readonly string[]) => void,
): FtsRow {
  const cols: number[] = []
  const texts: string[] = []
  for (let col = 0; col < ftsFields.length; col++) {
    const f = ftsFields[col] as string
    const values = fields[f]
    if (!values || values.length === 0) continue
    // Most fields hold one value: its memoized words, with no array of arrays.
    const words =
      values.length === 1
        ? analysis.words(String(values[0]))
        : values.flatMap((v) => analysis.words(String(v)))
    visit?.(col, f, words)
    cols.push(col)
    texts.push(words.join(' '))
  }
  return { cols, texts }
}

/**
 * Whether two documents hold the same values in every analysed field (`ftsFields`), so the same FTS
 * row: cheaper to tell than their rows are to build. Values that differ but give the same words
 * count as different (the row is then written again, as it was).
 */
export function sameAnalysedValues(
  a: DocumentFields,
  b: DocumentFields,
  ftsFields: readonly string[],
): boolean {
  for (const f of ftsFields) {
    const x = a[f]
    const y = b[f]
    if (x === y) continue
    const n = x?.length ?? 0
    if (n !== (y?.length ?? 0)) return false
    for (let i = 0; i < n; i++)
      if ((x as DocumentFields[string])[i] !== (y as DocumentFields[string])[i]) return false
  }
  return true
}
