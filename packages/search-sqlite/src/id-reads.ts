import type Database from 'better-sqlite3'

/**
 * Reads of document ids, the hot path of every search. Two facts about the index shape them:
 * - better-sqlite3 spends about 0.5 µs handing each row to JavaScript, more than SQLite spends
 *   finding it: many ids cross as one string (`group_concat`) instead, about 4× cheaper;
 * - FTS5 does not stop at a `rowid <= ?` bound: it reads the term's whole list and drops the
 *   rows past the bound, so a bounded read would cost what the whole index holds. A read in id
 *   order that stops at the first id past the bound ({@link idsUpTo}) costs what the bound
 *   holds instead.
 */

/**
 * The ids of a select whose first column is an id, as one `group_concat` row: `inner` is the
 * select (with its LIMIT, if any), `params` its parameters. Ids come in the order the select
 * yields them.
 */
export function concatIds(
  statement: (sql: string) => Database.Statement,
  inner: string,
  params: readonly unknown[],
): number[] {
  const text = statement(`SELECT group_concat(doc_id) FROM (${inner})`)
    .pluck()
    .get(...params) as string | null
  return text ? parseIds(text) : []
}

/** Comma-separated decimal ids to numbers (faster than `split(',').map(Number)`). */
export function parseIds(text: string): number[] {
  const out: number[] = []
  let n = 0
  let negative = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 44) {
      out.push(negative ? -n : n)
      n = 0
      negative = false
    } else if (c === 45) negative = true
    else n = n * 10 + (c - 48)
  }
  out.push(negative ? -n : n)
  return out
}

/** Ids a bounded read asks for first; then as many as the density seen says the bound holds. */
const FIRST_READ = 1024

/**
 * The ids of a select that yields them in ascending order (an FTS5 match, `doc_id` its first
 * column, no LIMIT of its own), up to `bound`. Read as {@link concatIds} in LIMIT steps, as
 * FTS5 stops at a LIMIT but not at a rowid bound: a first step of {@link FIRST_READ} ids, then
 * one sized from the density it saw (a little over what the bound should hold), and so on
 * while every id read is within the bound. A read costs about what the bound holds, however
 * long the term's whole list is.
 */
export function idsUpTo(
  statement: (sql: string) => Database.Statement,
  select: string,
  params: readonly unknown[],
  bound: number,
  /** Called when the select yields no row at all (not only none up to the bound). */
  onNone?: () => void,
): number[] {
  for (let limit = FIRST_READ; ; ) {
    const ids = concatIds(statement, `${select} LIMIT ?`, [...params, limit])
    if (ids.length === 0) onNone?.()
    const last = ids[ids.length - 1] ?? 0
    if (ids.length < limit || last > bound) {
      const lo = upTo(ids, bound)
      return lo === ids.length ? ids : ids.slice(0, lo)
    }
    limit = Math.max(limit * 2, Math.ceil((ids.length * (bound + 1) * 1.1) / (last + 1)) + 64)
  }
}

/** How many of the ascending `ids` are at most `bound`. */
export function upTo(ids: readonly number[], bound: number): number {
  let lo = 0
  let hi = ids.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((ids[mid] as number) <= bound) lo = mid + 1
    else hi = mid
  }
  return lo
}
