import type Database from 'better-sqlite3'
import type { DocRow, FacetPosting } from './facet-loader.js'

/**
 * Up to `limit` documents from id `from` on: type, soft-delete flag and number of words in the
 * entity type's best fields, for the facet cache (the words counted from FTS5's per-column sizes, `fts_docsize`: SQLite
 * varints, one per FTS column in column order).
 */
export function* docRows(
  db: Database.Database,
  ftsFields: readonly string[],
  bestFields: (entityType: string) => ReadonlySet<string>,
  from: number,
  limit: number,
): Iterable<DocRow> {
  const rows = db
    .prepare(
      'SELECT d.id, d.entity_type, d.removed, s.sz FROM docs d LEFT JOIN fts_docsize s ON s.id = d.id WHERE d.id >= ? ORDER BY d.id LIMIT ?',
    )
    .raw()
    .all(from, limit) as Array<[number, string, number, Buffer | null]>
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
 * Values of a facet field with the documents having it, for the facet cache: those after `after`
 * (without ASCII case) up to about `rows` rows, and the last value read (undefined at the end);
 * one row per value (the
 * ids joined in SQL), as a row per document and value costs JavaScript several times more. The
 * joined ids are read digit by digit: splitting them first would make a string per document
 * (a value most documents have makes a million of them at 1M documents).
 */
export function facetPostings(
  db: Database.Database,
  field: string,
  fieldIds: ReadonlyMap<string, number>,
  after: string | undefined,
  rows: number,
): { postings: FacetPosting[]; last: string | undefined } {
  const id = fieldIds.get(field)
  if (id === undefined) return { postings: [], last: undefined }
  const from = after === undefined ? '' : 'AND value > ? COLLATE NOCASE'
  const at = after === undefined ? [] : [after]
  // The values (without ASCII case, the index's order) up to about `rows` rows on: values that
  // differ only in case are read together, so no value's documents are split between reads.
  const last = db
    .prepare(`SELECT value FROM exact WHERE field = ? ${from} ORDER BY value COLLATE NOCASE LIMIT 1 OFFSET ?`)
    .pluck()
    .get(id, ...at, rows) as string | undefined
  const to = last === undefined ? '' : 'AND value <= ? COLLATE NOCASE'
  const postings: FacetPosting[] = []
  for (const [value, ids] of db
    .prepare(`SELECT value, group_concat(doc_id) FROM exact WHERE field = ? ${from} ${to} GROUP BY value`)
    .raw()
    .all(id, ...at, ...(last === undefined ? [] : [last])) as Array<[string, string]>)
    postings.push([field, value, parseIds(ids)])
  return { postings, last }
}

/** Up to `limit` words of the FTS vocabulary after `after`, in the index's order, each with its number of documents. */
export function vocabularyPage(db: Database.Database, after: string, limit: number): Array<[string, number]> {
  return db
    .prepare('SELECT term, doc FROM fts_vocab WHERE term > ? ORDER BY term LIMIT ?')
    .raw()
    .all(after, limit) as Array<[string, number]>
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
