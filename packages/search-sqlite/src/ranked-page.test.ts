import t from 'tap'
import { type RankedRow, rankedPage } from './ranked-page.js'

/** What the page was before: every row sorted, the counted ones first, then the rest of the counted hits. */
function reference(rows: RankedRow[], counted: number[], start: number, count: number): number[] {
  const set = new Set(counted)
  const sorted = [...rows].sort((a, b) => b[1] - a[1] || b[2] - a[2] || a[0] - b[0])
  const first = new Set(sorted.map((r) => r[0]).filter((id) => set.has(id)))
  return [...first, ...counted.filter((id) => !first.has(id))].slice(start, start + count)
}

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff
    return (s >>> 4) % n
  }
}

t.test('the page is the one a sort of every row gives', async (t) => {
  const r = random(42)
  for (let trial = 0; trial < 200; trial++) {
    const n = 1 + r(600)
    const ids = [...new Set(Array.from({ length: n }, () => 1 + r(2000)))]
    // Few distinct scores and clause counts, so ties (broken by id) are common.
    const rows: RankedRow[] = ids.map((id) => [id, 1 + r(3), r(4) / 2])
    const counted = [
      ...new Set([...ids.filter(() => r(4) > 0), ...Array.from({ length: r(300) }, () => 1 + r(2000))]),
    ].sort((a, b) => a - b)
    const set = new Set(counted)
    const start = [0, 0, 10, 250, 300, r(400)][r(6)] as number
    const count = [10, 1, 20, 50][r(4)] as number
    t.same(
      rankedPage(rows, counted, (id) => set.has(id), start, count),
      reference(rows, counted, start, count),
      `trial ${trial}: ${rows.length} rows, ${counted.length} counted, start ${start}, count ${count}`,
    )
  }
})

t.test('rows of documents that are not counted hits never reach the page', async (t) => {
  const rows: RankedRow[] = [
    [5, 3, 9],
    [1, 1, 1],
    [2, 2, 1],
  ]
  const counted = [1, 2, 3, 4]
  const set = new Set(counted)
  t.same(
    rankedPage(rows, counted, (id) => set.has(id), 0, 10),
    [2, 1, 3, 4],
  )
  t.same(
    rankedPage(rows, counted, (id) => set.has(id), 1, 2),
    [1, 3],
  )
})
