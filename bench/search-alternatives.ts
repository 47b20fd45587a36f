/**
 * Ranking alternatives side by side, on a built index (`<dir>/search.db`), for the scale
 * benchmark's 1–3 word queries: how long each takes to find a page of 10, and how many of the
 * top 10 of bm25 with the dataset boosts over the whole rank window (the previous ranking) it
 * finds.
 * - window 10k: bm25 over the first 10,000 matches (the current ranking);
 * - window 2k: bm25 over the first 2,000 only;
 * - name tier: bm25 only over the window's matches in the boost-10 columns (id, name,
 *   qualifiedName), the other matches after them;
 * - field tiers: no bm25; each word read as ids in the boost-10 columns and in all default
 *   columns, scored idf × tier (what the index does, without its early stop);
 * - bare FTS5: `ORDER BY bm25 LIMIT 10` over every match (no window, no boosts);
 * - ids only: the first 10,000 match ids, unscored (the counting pass).
 * Then ways to read the ids of a word's matches up to a bound (what every ranking read and
 * counting pass does), CPU ms: rows (`rowid <= ?`, one row per id), concat (the same as one
 * `group_concat` string), steps (`LIMIT` steps cut at the bound: `idsUpTo`, what the index does),
 * iterate (row by row, stopping at the first id past the bound). FTS5 does not stop at a rowid
 * bound: the first two cost the word's whole list, whatever the bound.
 * `node --import tsx bench/search-alternatives.ts <dir>`.
 */
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import { SearchSchema } from '@catalog/search'
import Database from 'better-sqlite3'
import { concatIds, idsUpTo } from '../packages/search-sqlite/src/id-reads.js'
import { fmt, percentile } from './lib.js'

const dir = process.argv[2] ?? process.env.BENCH_SCALE_DIR ?? '/tmp/scale200k'
const db = new Database(join(dir, 'search.db'), { readonly: true })
db.pragma('cache_size = -32768')
const spec = new SearchSchema(new Registry()).entity('dataset')
if (!spec) throw new Error('no dataset spec')
const columns = db.prepare("SELECT name FROM pragma_table_info('fts')").pluck().all() as string[]
const boost = (c: string) =>
  spec.defaultFields.includes(c.slice(2)) ? (spec.fields.get(c.slice(2))?.boost ?? 1) : 0
const weights = columns.map((c) => String(boost(c))).join(', ')
const all = columns.filter((c) => boost(c) > 0).join(' ')
const top = columns.filter((c) => boost(c) >= 10).join(' ')
const WINDOW = 10_000
const queries = [
  'orders',
  'customers',
  'daily customers',
  'sales orders',
  'marketing campaigns hourly',
  'finance team payments',
]

/** Words are OR-ed, as the query parser does (documents matching more words rank first). */
const expr = (q: string) =>
  q
    .split(/\s+/)
    .map((w) => `"${w}" *`)
    .join(' OR ')
const ids = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?').pluck()
const scored = db
  .prepare(`SELECT rowid, -bm25(fts, ${weights}) FROM fts WHERE fts MATCH ? AND rowid <= ?`)
  .raw()
const window = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? AND rowid <= ?').pluck()
const bare = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10').pluck()
const best = (rows: Array<[number, number]>) =>
  rows
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, 10)
    .map((r) => r[0])

const variants: Record<string, (q: string) => number[]> = {
  'window 10k': (q) => {
    const first = ids.all(`{${all}} : (${expr(q)})`, WINDOW) as number[]
    return best(scored.all(`{${all}} : (${expr(q)})`, first.at(-1) ?? 0) as Array<[number, number]>)
  },
  'window 2k': (q) => {
    const first = ids.all(`{${all}} : (${expr(q)})`, 2000) as number[]
    return best(scored.all(`{${all}} : (${expr(q)})`, first.at(-1) ?? 0) as Array<[number, number]>)
  },
  'name tier': (q) => {
    const first = ids.all(`{${all}} : (${expr(q)})`, WINDOW) as number[]
    const bound = first.at(-1) ?? 0
    const named = best(scored.all(`{${top}} : (${expr(q)})`, bound) as Array<[number, number]>)
    if (named.length >= 10) return named
    return best(scored.all(`{${all}} : (${expr(q)})`, bound) as Array<[number, number]>)
  },
  'field tiers': (q) => {
    // What the index now does (word-ranker.ts), without its early stop: per word, ids in the
    // boost-10 columns, then in all default columns; more words first, then Σ idf × tier.
    const first = ids.all(`{${all}} : (${expr(q)})`, WINDOW) as number[]
    const bound = first.at(-1) ?? 0
    const terms = new Map<number, number>()
    const score = new Map<number, number>()
    for (const w of q.split(/\s+/)) {
      const inTop = new Set(window.all(`{${top}} : ("${w}" *)`, bound) as number[])
      const found = window.all(`{${all}} : ("${w}" *)`, bound) as number[]
      const idf = Math.log(1 + (bound - found.length + 0.5) / (found.length + 0.5))
      for (const id of found) {
        terms.set(id, (terms.get(id) ?? 0) + 1)
        score.set(id, (score.get(id) ?? 0) + idf * (inTop.has(id) ? 1.96 : 1))
      }
    }
    return [...terms]
      .sort((a, b) => b[1] - a[1] || (score.get(b[0]) ?? 0) - (score.get(a[0]) ?? 0) || a[0] - b[0])
      .slice(0, 10)
      .map((r) => r[0])
  },
  'bare FTS5': (q) =>
    bare.all(
      q
        .split(/\s+/)
        .map((w) => `"${w}" *`)
        .join(' AND '),
    ) as number[],
  'ids only': (q) => (ids.all(`{${all}} : (${expr(q)})`, WINDOW) as number[]).slice(0, 10),
}

process.stdout.write(`ranking alternatives on ${dir}: ms p50/p95 over 10 runs, and exact top-10 found\n`)
for (const q of queries) {
  const exact = variants['window 10k']?.(q) ?? []
  const cells: string[] = []
  for (const [name, run] of Object.entries(variants)) {
    const ms: number[] = []
    let got: number[] = []
    for (let i = 0; i < 10; i++) {
      const s = performance.now()
      got = run(q)
      ms.push(performance.now() - s)
    }
    const found = got.filter((id) => exact.includes(id)).length
    cells.push(`${name} ${fmt(percentile([...ms], 50), 1)}/${fmt(percentile(ms, 95), 1)} (${found}/10)`)
  }
  process.stdout.write(`"${q}": ${cells.join(' | ')}\n`)
}

const statement = (sql: string) => db.prepare(sql)
const match = 'SELECT rowid AS doc_id FROM fts WHERE fts MATCH ?'
const reads: Record<string, (m: string, bound: number) => number> = {
  rows: (m, bound) => window.all(m, bound).length,
  concat: (m, bound) => concatIds(statement, `${match} AND rowid <= ?`, [m, bound]).length,
  steps: (m, bound) => idsUpTo(statement, match, [m], bound).length,
  iterate: (m, bound) => {
    let n = 0
    for (const id of ids.iterate(m, -1) as Iterable<number>) {
      if (id > bound) break
      n++
    }
    return n
  },
}
const cpuMs = (fn: () => unknown) => {
  const s = process.cpuUsage()
  fn()
  const d = process.cpuUsage(s)
  return (d.user + d.system) / 1000
}
process.stdout.write('reading the ids of a word up to a bound: CPU ms p50 over 7 runs (ids read)\n')
for (const [columns, word] of [
  [all, 'orders'],
  [top, 'orders'],
  [all, 'team'],
  [top, 'team'],
] as const)
  for (const bound of [10_000, 50_000]) {
    const m = `{${columns}} : ("${word}")`
    const cells = Object.entries(reads).map(([name, read]) => {
      let n = 0
      const ms = Array.from({ length: 7 }, () => cpuMs(() => (n = read(m, bound))))
      return `${name} ${fmt(percentile(ms, 50), 2)} (${fmt(n)})`
    })
    const where = columns === top ? 'best fields' : 'default fields'
    process.stdout.write(`"${word}" in the ${where} up to ${fmt(bound)}: ${cells.join(' | ')}\n`)
  }
db.close()
