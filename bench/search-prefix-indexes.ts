/**
 * `node --import tsx bench/search-prefix-indexes.ts`: why the search index keeps FTS5's prefix
 * indexes of 2 and 3 characters (`prefix='2 3'`), though they hold most of its FTS5 bytes and
 * writes. One FTS5 table (contentless, as the index's) is built per setting from the same
 * BENCH_ENTITIES documents (default 200,000; 5 words each from a vocabulary of 20,000, and one word
 * of 400 that share the prefix `cus` in half of them), then FTS5 prefix queries are timed (CPU per
 * query): a bounded read of 100 matches (autocomplete reads a few dozen), one of 10,000 (a search's
 * counted hits), for 3 and 2 characters. Without the index of a query's length FTS5 merges every
 * matching word's list before the first row; with it, the read stops early.
 * The index's own queries use FTS5 prefix queries when a prefix has more than 32 completions
 * (`prefixForm`), or 2 characters.
 */
import Database from 'better-sqlite3'
import { fmt } from './lib.js'

const N = Number(process.env.BENCH_ENTITIES ?? 200_000)
const ROUNDS = 20
const SETTINGS = ["prefix='2 3'", "prefix='2'", ''] as const
const QUERIES: ReadonlyArray<readonly [expr: string, limit: number]> = [
  ['"cus" *', 100],
  ['"cus" *', 10_000],
  ['"cu" *', 100],
  ['"cu" *', 10_000],
]

/** A seeded generator: every setting gets the same documents. */
function generator(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648
    return s / 2_147_483_648
  }
}

function documents(): string[] {
  const r = generator(42)
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  const word = (prefix: string) =>
    prefix + Array.from({ length: 3 + Math.floor(r() * 5) }, () => letters[Math.floor(r() * 26)]).join('')
  const cus = Array.from({ length: 400 }, () => word('cus'))
  const other = Array.from({ length: 20_000 }, () => word(''))
  // r() * r(): a few words are common, most rare, as in names.
  const pick = (words: string[]) => words[Math.floor(r() * r() * words.length)] as string
  return Array.from({ length: N }, () => {
    const words = Array.from({ length: 5 }, () => pick(other))
    if (r() < 0.5) words.push(pick(cus))
    return words.join(' ')
  })
}

const docs = documents()
process.stdout.write(`FTS5 prefix queries on ${fmt(N)} documents, CPU ms per query (${ROUNDS} runs)\n`)
for (const setting of SETTINGS) {
  const db = new Database(':memory:')
  db.exec(
    `CREATE VIRTUAL TABLE fts USING fts5 (a, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2'${setting ? `, ${setting}` : ''})`,
  )
  const insert = db.prepare('INSERT INTO fts (rowid, a) VALUES (?, ?)')
  db.transaction(() => {
    for (const [i, text] of docs.entries()) insert.run(i + 1, text)
  })()
  db.exec("INSERT INTO fts (fts) VALUES ('optimize')")
  const bytes = db.prepare("SELECT sum(pgsize) FROM dbstat WHERE name = 'fts_data'").pluck().get() as number
  const read = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? LIMIT ?').pluck()
  const cells = QUERIES.map(([expr, limit]) => {
    const start = process.cpuUsage()
    for (let i = 0; i < ROUNDS; i++) read.all(expr, limit)
    const used = process.cpuUsage(start)
    return `${expr} LIMIT ${fmt(limit)}: ${fmt((used.user + used.system) / ROUNDS / 1000, 2)}`
  })
  process.stdout.write(
    `${setting || 'no prefix index'}: FTS5 data ${fmt(bytes / N)} bytes per document; ${cells.join(', ')}\n`,
  )
  db.close()
}
