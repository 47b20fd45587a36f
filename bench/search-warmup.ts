/**
 * The first search after a restart, with and without the search worker's warm-up, on a built
 * index (`<dir>/search.db`, e.g. the scale benchmark's data dir, `BENCH_SCALE_DIR`):
 * - without warm-up (the baseline): the worker opens the index and the first query loads the
 *   caches (facet columns, words) on the query path;
 * - with warm-up: the worker loads them in steps while idle after it opens; the first query is
 *   sent once it says they are loaded.
 * For each: the first query's latency and CPU, the same query's median of 5 later runs, the
 * warm-up's own time and CPU (open to loaded), and the process's RSS after; also a query sent
 * right after the open, in the middle of the warm-up. Runs alternate (`BENCH_RUNS`, default 3)
 * after one untimed open that fills the OS file cache. CPU is the whole process's (both threads).
 * `node --import tsx bench/search-warmup.ts <dir> [query]`
 */
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import { RequestBuilder, SearchSchema } from '@catalog/search'
import { WorkerSearchIndex } from '@catalog/search-sqlite'
import { fmt, percentile } from './lib.js'

const dir = process.argv[2] ?? process.env.BENCH_SCALE_DIR ?? '/tmp/warm/scale/data'
const file = join(dir, 'search.db')
const input = process.argv[3] ?? 'daily customers'
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
const requests = new RequestBuilder(new SearchSchema(new Registry()))
const request = requests.search({ input, entityTypes: ['dataset'], start: 0, count: 10 })

const cpuMs = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}
const rssMb = () => process.memoryUsage().rss / 1e6

/** Wall and CPU ms of an async call. */
async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const [w, c] = [performance.now(), cpuMs()]
  await fn()
  return { ms: performance.now() - w, cpu: cpuMs() - c }
}

interface Run {
  readonly warmMs: number
  readonly warmCpu: number
  readonly first: { ms: number; cpu: number }
  readonly later: { ms: number; cpu: number }
  readonly queryLoads: number
  readonly rss: number
}

async function run(warmup: boolean): Promise<Run> {
  const [w, c] = [performance.now(), cpuMs()]
  const index = await WorkerSearchIndex.open({ file, warmup })
  try {
    if (warmup) await index.whenWarm()
    const [warmMs, warmCpu] = [performance.now() - w, cpuMs() - c]
    const first = await timed(() => index.search(request))
    const { queryLoads } = await index.cacheState()
    const later: Array<{ ms: number; cpu: number }> = []
    for (let i = 0; i < 5; i++) later.push(await timed(() => index.search(request)))
    const median = (k: 'ms' | 'cpu') =>
      percentile(
        later.map((l) => l[k]),
        50,
      )
    return {
      warmMs,
      warmCpu,
      first,
      later: { ms: median('ms'), cpu: median('cpu') },
      queryLoads,
      rss: rssMb(),
    }
  } finally {
    await index.close()
  }
}

/**
 * The query first sent to a warmed worker that has answered other queries before (what a later
 * query costs when its words were not queried before).
 */
async function afterOthers(): Promise<{ ms: number; cpu: number }> {
  const index = await WorkerSearchIndex.open({ file })
  try {
    await index.whenWarm()
    for (const other of ['sales orders', 'orders', 'payment events', 'platform:kafka'])
      await index.search(requests.search({ input: other, entityTypes: ['dataset'], start: 0, count: 10 }))
    return await timed(() => index.search(request))
  } finally {
    await index.close()
  }
}

/** A query sent as soon as the index opened: it waits for a step at most and finishes the load. */
async function midWarmup(): Promise<{ ms: number; cpu: number; queryLoads: number }> {
  const index = await WorkerSearchIndex.open({ file })
  try {
    const first = await timed(() => index.search(request))
    return { ...first, queryLoads: (await index.cacheState()).queryLoads }
  } finally {
    await index.close()
  }
}

process.stdout.write(`first search after a restart: ${file}, "${input}" with the default facets\n`)
await run(false)
const cold: Run[] = []
const warm: Run[] = []
const mid: Array<{ ms: number; cpu: number; queryLoads: number }> = []
const others: Array<{ ms: number; cpu: number }> = []
for (let i = 0; i < RUNS; i++) {
  cold.push(await run(false))
  warm.push(await run(true))
  mid.push(await midWarmup())
  others.push(await afterOthers())
}
const med = (xs: number[]) => percentile([...xs], 50)
const line = (name: string, runs: Run[]) =>
  `${name.padEnd(22)} first query ${fmt(med(runs.map((r) => r.first.ms)))} ms, CPU ${fmt(med(runs.map((r) => r.first.cpu)))} ms` +
  ` (cache loads on the query path: ${runs.map((r) => r.queryLoads).join(', ')}); later runs ${fmt(med(runs.map((r) => r.later.ms)), 1)} ms, CPU ${fmt(med(runs.map((r) => r.later.cpu)), 1)} ms;` +
  ` open${runs === warm ? ' + warm-up' : ''} ${fmt(med(runs.map((r) => r.warmMs)))} ms, CPU ${fmt(med(runs.map((r) => r.warmCpu)))} ms; RSS ${fmt(Math.max(...runs.map((r) => r.rss)))} MB`
process.stdout.write(`${line('without warm-up', cold)}\n${line('with warm-up', warm)}\n`)
process.stdout.write(
  `sent right after the open  ${fmt(med(mid.map((m) => m.ms)))} ms, CPU ${fmt(med(mid.map((m) => m.cpu)))} ms (cache loads on the query path: ${mid.map((m) => m.queryLoads).join(', ')})\n`,
)
process.stdout.write(
  `sent after 4 other queries ${fmt(med(others.map((m) => m.ms)), 1)} ms, CPU ${fmt(med(others.map((m) => m.cpu)), 1)} ms (a warm worker, these words not queried before)\n`,
)
const ratio = (k: 'ms' | 'cpu') => med(warm.map((r) => r.first[k])) / med(cold.map((r) => r.first[k]))
process.stdout.write(
  `first query with warm-up / without: latency ${fmt(ratio('ms'), 2)}×, CPU ${fmt(ratio('cpu'), 2)}×; with warm-up, first / after other queries: latency ${fmt(med(warm.map((r) => r.first.ms)) / med(others.map((r) => r.ms)), 2)}×, CPU ${fmt(med(warm.map((r) => r.first.cpu)) / med(others.map((r) => r.cpu)), 2)}×; first / the same query again: ${fmt(med(warm.map((r) => r.first.ms)) / med(warm.map((r) => r.later.ms)), 2)}×\n`,
)
