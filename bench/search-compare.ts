/**
 * Two implementations of the embedded search index side by side on one built index
 * (`<dir>/search.db`, e.g. BENCH_SCALE_DIR of the scale benchmark): the scale benchmark's
 * query kinds (1, 2 and 3 words with the default facets, exact `field:value`, autocomplete),
 * each request sent to both in turn, so both run under the same load of a shared machine.
 * Prints per kind the CPU milliseconds per request (user + system of this process: unlike
 * latency, it does not grow with what else the machine runs), p50 and p95, for each, and
 * whether both gave the same answer.
 * `node --import tsx bench/search-compare.ts <dir> <search-sqlite src dir A> [<src dir B>]`
 * (B defaults to this tree's `packages/search-sqlite/src`; A is e.g. a copy of the previous
 * commit's, from `git show`). BENCH_DIR_B gives B an index file of its own (`<BENCH_DIR_B>/search.db`,
 * e.g. a copy of the same index that B rebuilt in its layout); BENCH_SHORT=1 adds a kind of
 * short prefixes (2 and 3 letters, as typed into a search box), which FTS5's prefix indexes serve.
 */
import { join, resolve } from 'node:path'
import { Registry } from '@catalog/core'
import { RequestBuilder, SearchSchema } from '@catalog/search'
import { fmt, percentile } from './lib.js'
import { type Kind, scaleKinds } from './scale-kinds.js'

const [dir = process.env.BENCH_SCALE_DIR ?? '/tmp/scale200k', srcA, srcB = 'packages/search-sqlite/src'] =
  process.argv.slice(2)
if (!srcA) throw new Error('usage: search-compare.ts <dir> <src dir A> [<src dir B>]')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10)

const registry = new Registry()
const schema = new SearchSchema(registry)
const requests = new RequestBuilder(schema)

interface Index {
  search(r: unknown): Promise<unknown>
  autocomplete(r: unknown): Promise<unknown>
  close(): Promise<void>
}
async function open(src: string, dir: string): Promise<Index> {
  const mod = (await import(join(resolve(src), 'sqlite-search-index.ts'))) as {
    SqliteSearchIndex: new (o: unknown) => Index
  }
  return new mod.SqliteSearchIndex({ file: join(dir, 'search.db'), schema })
}

const indexes = { A: await open(srcA, dir), B: await open(srcB, process.env.BENCH_DIR_B ?? dir) }
const kinds: readonly Kind[] =
  process.env.BENCH_SHORT === '1'
    ? [
        ...scaleKinds,
        {
          name: 'short prefixes',
          targetMs: 50,
          action: 'search',
          inputs: ['da', 'cu', 'or', 'fi', 'dai', 'cus', 'ord', 'fin', 'pay', 'inv'],
        },
        {
          name: 'short autocomplete',
          targetMs: 20,
          action: 'autocomplete',
          inputs: ['da', 'cu', 'or', 'fi', 'dai', 'cus', 'ord', 'pay', 'inv', 'hou'],
        },
      ]
    : scaleKinds
const run = (index: Index, action: 'search' | 'autocomplete', input: string) =>
  action === 'autocomplete'
    ? index.autocomplete(requests.autocomplete({ query: input, entityType: 'dataset', limit: 10 }))
    : index.search(requests.search({ input, entityTypes: ['dataset'], start: 0, count: 10 }))
const cpu = async (fn: () => Promise<unknown>): Promise<[number, unknown]> => {
  const s = process.cpuUsage()
  const out = await fn()
  const d = process.cpuUsage(s)
  return [(d.user + d.system) / 1000, out]
}

// Warm-up: loads each index's caches (vocabulary, facet values).
for (const index of Object.values(indexes)) await run(index, 'search', 'orders')
process.stdout.write(`${dir}: A = ${srcA}, B = ${srcB}; CPU ms per request, p50/p95, ${ROUNDS} rounds\n`)
for (const kind of kinds) {
  const t = { A: [] as number[], B: [] as number[] }
  const differ: string[] = []
  for (let round = 0; round < ROUNDS; round++)
    for (const input of kind.inputs) {
      const order = round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)
      const answers: Record<string, string> = {}
      for (const which of order) {
        const [ms, out] = await cpu(() => run(indexes[which], kind.action, input))
        t[which].push(ms)
        answers[which] = JSON.stringify(out)
      }
      if (round === 0 && answers.A !== answers.B) differ.push(input)
    }
  const cell = (v: number[]) => `${fmt(percentile([...v], 50), 1)}/${fmt(percentile(v, 95), 1)}`
  process.stdout.write(
    `${kind.name}: A ${cell(t.A)} | B ${cell(t.B)} | B/A p50 ${fmt(percentile([...t.B], 50) / percentile([...t.A], 50), 2)}× | ${differ.length === 0 ? 'same answers' : `answers differ for ${differ.join(', ')}`}\n`,
  )
}
for (const index of Object.values(indexes)) await index.close()
