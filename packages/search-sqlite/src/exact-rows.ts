import type { DocumentFields } from '@catalog/search'
import type { ValueAnalysis } from './value-analysis.js'

/** A row of `exact` without its document: field id, value, variant (see `EXACT_DDL`), number. */
export type ExactRow = readonly [field: number, value: string, variant: number, num: number | null]

/** A document's rows of `exact` and of `urn_keys` (field id and key). */
export interface DocumentRows {
  readonly exact: readonly ExactRow[]
  readonly keys: ReadonlyArray<readonly [field: number, key: string]>
}

/** What tells two rows of one document apart (equal rows, equal strings). */
export const exactRowKey = (r: ExactRow) =>
  `${r[0]}\u0000${r[2]}\u0000${r[3] === null ? '' : 'n'}\u0000${r[1]}`
export const urnKeyKey = (k: readonly [number, string]) => `${k[0]}\u0000${k[1]}`

/** Where {@link eachDocumentRow} sends a document's rows. */
export interface DocumentRowSink {
  exact(field: number, value: string, variant: number, num: number | null): void
  key(field: number, key: string): void
}

/**
 * The rows a merged document has in `exact` and `urn_keys`: every value of its exact fields,
 * once (the table's key ignores ASCII case: values equal but for it are told apart by
 * `variant`, 0 for the first), and the URN keys of its string values.
 */
export function documentRows(
  fields: DocumentFields,
  isExact: (field: string) => boolean,
  fieldId: (field: string) => number,
  analysis: ValueAnalysis,
): DocumentRows {
  const exact: ExactRow[] = []
  const keys: Array<readonly [number, string]> = []
  eachDocumentRow(fields, isExact, fieldId, analysis, {
    exact: (field, value, variant, num) => exact.push([field, value, variant, num]),
    key: (field, key) => keys.push([field, key]),
  })
  return { exact, keys }
}

/** The rows of {@link documentRows}, in the same order, given one by one (no row objects). */
export function eachDocumentRow(
  fields: DocumentFields,
  isExact: (field: string) => boolean,
  fieldId: (field: string) => number,
  analysis: ValueAnalysis,
  sink: DocumentRowSink,
): void {
  for (const field in fields) {
    if (!isExact(field)) continue
    const values = fields[field] as DocumentFields[string]
    const fid = fieldId(field)
    const seen = values.length > 1 ? new Set<string>() : undefined
    const variants = values.length > 1 ? new Map<string, number>() : undefined
    const fieldKeys = values.length > 1 ? new Set<string>() : undefined
    for (const v of values) {
      const text = String(v)
      let variant = 0
      if (seen && variants) {
        if (seen.has(text)) continue
        seen.add(text)
        const folded = asciiLower(text)
        variant = variants.get(folded) ?? 0
        variants.set(folded, variant + 1)
      }
      sink.exact(fid, text, variant, typeof v === 'number' ? v : null)
      if (typeof v !== 'string') continue
      for (const k of analysis.keys(v)) {
        // Two URNs of one field share members (`prod`, `hive`): one row each.
        if (fieldKeys?.has(k)) continue
        fieldKeys?.add(k)
        sink.key(fid, k)
      }
    }
  }
}

/** Lower-cases A-Z only, as SQLite's NOCASE compares. */
function asciiLower(text: string): string {
  return /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : text
}
