import type Database from 'better-sqlite3'
import type { DocRow, FacetPosting } from './facet-cache.js'

/**
 * Every document's type, soft-delete flag and number of words in its entity type's best fields,
 * for the facet cache (the words counted from FTS5's per-column sizes, `fts_docsize`: SQLite
 * varints, one per FTS column in column order).
 */
export function* docRows(
  db: Database.Database,
  ftsFields: readonly string[],
  bestFields: (entityType: string) => ReadonlySet<string>,
): Iterable<DocRow> {
  const rows = db
    .prepare('SELECT d.id, d.entity_type, d.removed, s.sz FROM docs d LEFT JOIN fts_docsize s ON s.id = d.id')
    .raw()
    .iterate() as Iterable<[number, string, number, Buffer | null]>
  const columns = new Map<string, boolean[]>()
  for (const [id, type, removed, sz] of rows) {
    let best = columns.get(type)
    if (!best) {
      const fields = bestFields(type)
      best = ftsFields.map((f) => fields.has(f))
      columns.set(type, best)
    }
    let size = 0
    if (sz)
      for (let i = 0, col = 0; i < sz.length && col < best.length; col++) {
        // SQLite varints: big-endian groups of 7 bits, the high bit set on all but the last.
        let n = 0
        for (;;) {
          const b = sz[i++] as number
          n = n * 128 + (b & 0x7f)
          if (b < 0x80 || i >= sz.length) break
        }
        if (best[col]) size += n
      }
    yield [id, type, removed, size]
  }
}

/**
 * Every facet value with the documents having it, for the facet cache: one row per value (the
 * ids joined in SQL), as a row per document and value costs JavaScript several times more. The
 * joined ids are read digit by digit: splitting them first would make a string per document
 * (a value most documents have makes a million of them at 1M documents).
 */
export function* facetPostings(
  db: Database.Database,
  fields: ReadonlySet<string>,
  fieldIds: ReadonlyMap<string, number>,
): Iterable<FacetPosting> {
  const values = db.prepare('SELECT value, group_concat(doc_id) FROM exact WHERE field = ? GROUP BY value')
  for (const field of fields) {
    const id = fieldIds.get(field)
    if (id === undefined) continue
    for (const [value, ids] of values.raw().iterate(id) as Iterable<[string, string]>)
      yield [field, value, parseIds(ids)]
  }
}

/** The numbers of a comma-separated list of non-negative integers. */
export function parseIds(text: string): number[] {
  const out: number[] = []
  let n = 0
  let digits = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 44) {
      if (digits) out.push(n)
      n = 0
      digits = false
    } else {
      n = n * 10 + (c - 48)
      digits = true
    }
  }
  if (digits) out.push(n)
  return out
}
