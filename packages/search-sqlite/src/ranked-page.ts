/** A scored row: document id, clauses matched, score. */
export type RankedRow = readonly [number, number, number]

/** Pages up to this end are picked from the scored rows by insertion; deeper ones sort them all. */
const SELECT_LIMIT = 256

/** More clauses matched first, then the higher score, then the lower id. */
const before = (a: RankedRow, b: RankedRow) => b[1] - a[1] || b[2] - a[2] || a[0] - b[0]

/**
 * The ids on a page (`start`, `count`) of a ranked search: the counted hits that have a scored
 * row (at most one row per document), best first, then the other counted hits in their order (id order). Only the best
 * `start + count` rows are kept (a page of 10 out of 10,000 scored rows looks at each row
 * once, with no sort of them all); the result is the same as sorting every row.
 */
export function rankedPage(
  rows: readonly RankedRow[],
  counted: readonly number[],
  isCounted: (id: number) => boolean,
  start: number,
  count: number,
): number[] {
  const end = start + count
  let best: RankedRow[]
  if (end > SELECT_LIMIT) best = rows.filter((r) => isCounted(r[0])).sort(before)
  else {
    best = []
    for (const r of rows) {
      if (best.length === end && before(r, best[end - 1] as RankedRow) >= 0) continue
      if (!isCounted(r[0])) continue
      let lo = 0
      let hi = best.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (before(best[mid] as RankedRow, r) <= 0) lo = mid + 1
        else hi = mid
      }
      best.splice(lo, 0, r)
      if (best.length > end) best.pop()
    }
  }
  const ids = best.slice(0, end).map((r) => r[0])
  const taken = new Set(ids)
  for (const id of counted) {
    if (ids.length >= end) break
    if (!taken.has(id)) ids.push(id)
  }
  return ids.slice(start, end)
}
