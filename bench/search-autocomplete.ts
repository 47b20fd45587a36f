/**
 * Autocomplete's CPU on a built index (`<dir>/search.db`), per input: p50/p95 of CPU time (user +
 * system: what it takes without the rest of a shared machine) of the index's `autocomplete`
 * call, beside FTS5's own prefix query reading the first 2,000 matches of the words as prefixes
 * (`"w" *`), with the first suggestions each input gets.
 * `node --import tsx bench/search-autocomplete.ts <dir> [<search-sqlite src dir>]`: with a second
 * argument (another copy of the implementation, e.g. the previous commit's from `git show`),
 * both run side by side, call by call, and every answer is compared, on the inputs and on
 * prefixes of words sampled from the index's vocabulary (`BENCH_PREFIXES`, default 300).
 * `BENCH_INPUTS` (comma-separated) replaces the inputs, `BENCH_ROUNDS` the calls per input (20).
 */
import { join, resolve } from 'node:path'
import { Registry } from '@catalog/core'
import { type AutocompleteParams, queryWords, RequestBuilder, SearchSchema } from '@catalog/search'
import Database from 'better-sqlite3'
import { fmt, percentile } from './lib.js'
import { scaleKinds } from './scale-kinds.js'

const [dir = process.env.BENCH_SCALE_DIR ?? '/tmp/scale100k', other] = process.argv.slice(2)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const PREFIXES = Number(process.env.BENCH_PREFIXES ?? 300)
type Index = InstanceType<typeof import('@catalog/search-sqlite').SqliteSearchIndex>
const open = async (src: string): Promise<Index> => {
  const { SqliteSearchIndex } = await import(join(resolve(src), 'sqlite-search-index.ts'))
  return new SqliteSearchIndex({ file: join(dir, 'search.db'), schema })
}
const inputs = process.env.BENCH_INPUTS?.split(',') ?? [
  ...(scaleKinds.find((k) => k.action === 'autocomplete')?.inputs ?? []),
  'or',
  'orders',
  'sales orders',
  'dim',
  'kafka',
  'snowflake',
  'zzzq',
]
const registry = new Registry()
const schema = new SearchSchema(registry)
const requests = new RequestBuilder(schema)
const file = join(dir, 'search.db')
const current = await open('packages/search-sqlite/src')
const previous = other ? await open(other) : undefined
const raw = new Database(file, { readonly: true })
const prefixScan = raw.prepare('SELECT rowid FROM fts WHERE fts MATCH ? LIMIT 2000').pluck()

/** CPU milliseconds of `fn` (user + system). */
const time = async (fn: () => unknown) => {
  const s = process.cpuUsage()
  await fn()
  const d = process.cpuUsage(s)
  return (d.user + d.system) / 1000
}
const cell = (v: number[]) => `${fmt(percentile([...v], 50), 2)}/${fmt(percentile([...v], 95), 2)}`
const ask = (index: Index, p: Partial<AutocompleteParams> & { query: string }) =>
  index.autocomplete(requests.autocomplete({ entityType: 'dataset', limit: 10, ...p }))

await ask(current, { query: 'orders' })
if (previous) await ask(previous, { query: 'orders' })
const all: number[] = []
const before: number[] = []
const rawAll: number[] = []
for (const input of inputs) {
  const expr = queryWords(input)
    .map((w) => `"${w.word}" *`)
    .join(' AND ')
  const cpu: number[] = []
  const prev: number[] = []
  const rawCpu: number[] = []
  let answer: ReadonlyArray<{ text: string }> = []
  for (let i = 0; i < ROUNDS; i++) {
    cpu.push(await time(async () => (answer = (await ask(current, { query: input })).suggestions)))
    if (previous) prev.push(await time(() => ask(previous, { query: input })))
    rawCpu.push(await time(() => prefixScan.all(expr)))
  }
  all.push(...cpu)
  before.push(...prev)
  rawAll.push(...rawCpu)
  const texts = answer.slice(0, 3).map((s) => s.text)
  process.stdout.write(
    `"${input}": autocomplete ${cell(cpu)}${previous ? ` (other ${cell(prev)})` : ''} | raw prefix scan ${cell(rawCpu)} CPU ms p50/p95; ${texts.join(', ')}${answer.length > 3 ? `, … (${answer.length})` : ''}\n`,
  )
}
process.stdout.write(
  `all inputs: autocomplete ${cell(all)}${previous ? ` (other ${cell(before)})` : ''} | raw prefix scan ${cell(rawAll)} CPU ms p50/p95\n`,
)

if (previous) {
  // Prefixes of sampled words, alone and after another sampled word, with other limits and fields.
  const words = raw
    .prepare("SELECT term FROM fts_vocab WHERE term GLOB '[a-z]*' ORDER BY random() LIMIT ?")
    .pluck()
    .all(PREFIXES) as string[]
  const cases: Array<Partial<AutocompleteParams> & { query: string }> = []
  for (const [i, w] of words.entries()) {
    const prefix = w.slice(0, 2 + (i % 5))
    cases.push({ query: prefix })
    cases.push({ query: `${words[(i * 7) % words.length]?.slice(0, 4)}_${prefix}` })
    if (i % 3 === 0) cases.push({ query: prefix, limit: 1 + (i % 40) })
    if (i % 5 === 0) cases.push({ query: prefix, field: i % 2 ? 'platform' : 'name' })
  }
  let differ = 0
  for (const c of cases) {
    const [a, b] = [await ask(current, c), await ask(previous, c)]
    if (JSON.stringify(a) === JSON.stringify(b)) continue
    differ++
    if (differ <= 5) process.stdout.write(`differs: ${JSON.stringify(c)}\n`)
  }
  process.stdout.write(`${cases.length} more requests: ${differ} answers differ between the two\n`)
}
raw.close()
await current.close()
await previous?.close()
