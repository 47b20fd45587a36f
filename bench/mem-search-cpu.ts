/**
 * `node --import tsx bench/mem-search-cpu.ts`: the catalog's CPU per search and autocomplete, and
 * their p95, for builds or node flags side by side (a memory setting weighed against what it costs
 * queries). BENCH_MEM_VARIANTS as bench/ingest-rss.ts's BENCH_RSS_VARIANTS (`;`-separated
 * `<repo copy with a built dist/>[|<extra node flags>]`). The first variant ingests
 * BENCH_MEM_DATASETS (default 200,000) of the ingest benchmark's datasets into one data dir; then
 * each variant in turn (A B A B ..., BENCH_MEM_ROUNDS rounds, default 5) is started on that dir,
 * waits for its search worker's warm-up, sends every input BENCH_MEM_REPEAT times (default 20)
 * one at a time, and prints the CPU per request (every thread of the server, from /proc), p95 and
 * RSS after. At the end: medians per variant.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchProposal as proposal } from './ingest-proposal.js'
import { fmt, load, median, percentile, rssMb } from './lib.js'
import { cpuMs } from './process-cpu.js'
import { inTurns, startBuild, variantOf } from './reads-start.js'

const DATASETS = Number(process.env.BENCH_MEM_DATASETS ?? 200_000)
const ROUNDS = Number(process.env.BENCH_MEM_ROUNDS ?? 5)
const REPEAT = Number(process.env.BENCH_MEM_REPEAT ?? 20)
const VARIANTS = (process.env.BENCH_MEM_VARIANTS ?? '.').split(';').filter(Boolean)

/** Queries over the ingest benchmark's datasets ("Table N holds the daily snapshot of orders for region M"). */
const SEARCHES = ['orders', 'daily snapshot', 'region 7', 'table_4242', 'schema_12', 'team-3 orders']
const AUTOCOMPLETES = ['tab', 'ord', 'snap', 'schema_1']

interface Outcome {
  cpuUs: number
  p95: number
  rss: number
}

async function post(url: string, action: string, body: unknown): Promise<number> {
  const started = performance.now()
  const res = await fetch(`${url}/entities?action=${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  await res.text()
  if (res.status !== 200) throw new Error(`${action} answered ${res.status}`)
  return performance.now() - started
}

const requests = (): Array<[string, unknown]> => [
  ...SEARCHES.map((input): [string, unknown] => [
    'search',
    { input, entity: 'dataset', start: 0, count: 10 },
  ]),
  ...AUTOCOMPLETES.map((query): [string, unknown] => [
    'autocomplete',
    { query, entity: 'dataset', limit: 10 },
  ]),
]

const dataDir = mkdtempSync(join(tmpdir(), 'mem-search-cpu-'))
try {
  const first = variantOf(VARIANTS[0] as string)
  const loader = await startBuild(first.root, dataDir, { extraFlags: first.flags })
  try {
    await load({
      url: loader.url,
      path: '/aspects?action=ingestProposalBatch',
      body: (n) =>
        JSON.stringify({ proposals: Array.from({ length: 1000 }, (_, k) => proposal(n * 1000 + k)) }),
      connections: 4,
      amount: Math.ceil(DATASETS / 1000),
    })
  } finally {
    await loader.stop()
  }
  process.stdout.write(`${fmt(DATASETS)} datasets in ${dataDir}\n`)

  const outcomes = await inTurns(VARIANTS, ROUNDS, async (variant): Promise<Outcome> => {
    const { root, flags } = variantOf(variant)
    const app = await startBuild(root, dataDir, { extraFlags: flags })
    const pid = app.child.pid as number
    try {
      // Until the first search answers, then the warm-up's time (it loads the caches while idle).
      for (let i = 0; ; i++) {
        try {
          await post(app.url, 'search', { input: 'orders', entity: 'dataset', start: 0, count: 10 })
          break
        } catch (err) {
          if (i > 60) throw err
          await new Promise((r) => setTimeout(r, 500))
        }
      }
      await new Promise((r) => setTimeout(r, 3000))
      for (const [action, body] of requests()) await post(app.url, action, body)
      const before = cpuMs(pid)
      const ms: number[] = []
      for (let r = 0; r < REPEAT; r++)
        for (const [action, body] of requests()) ms.push(await post(app.url, action, body))
      const after = cpuMs(pid)
      const out = {
        cpuUs: before && after ? ((after.all - before.all) * 1000) / ms.length : Number.NaN,
        p95: percentile(ms, 95),
        rss: rssMb(pid),
      }
      process.stdout.write(
        `${variant}: CPU per request ${fmt(out.cpuUs)} µs, p95 ${fmt(out.p95, 2)} ms, RSS after ${fmt(out.rss)} MB\n`,
      )
      return out
    } finally {
      await app.stop()
    }
  })
  for (const [variant, outs] of outcomes)
    process.stdout.write(
      `median ${variant}: CPU per request ${fmt(median(outs.map((o) => o.cpuUs)))} µs, p95 ${fmt(
        median(outs.map((o) => o.p95)),
        2,
      )} ms, RSS ${fmt(median(outs.map((o) => o.rss)))} MB\n`,
    )
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
