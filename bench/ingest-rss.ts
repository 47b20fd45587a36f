/**
 * `node --import tsx bench/ingest-rss.ts`: the ingest benchmark's memory phase alone, for builds
 * or node flags side by side. Each variant (BENCH_RSS_VARIANTS, `;`-separated, each `<repo copy
 * with a built dist/>` or `<repo copy>|<extra node flags>`) is started in turn on an empty data
 * dir, BENCH_RSS_ROUNDS times (default 5): A B A B ..., so the machine's load weighs on all alike.
 * Each run ingests BENCH_RSS_ASPECTS new datasets (default 1,000,000) as `ingestProposalBatch`
 * calls of 1,000 proposals over 4 connections, as bench/ingest.ts does, then prints RSS right
 * after the last batch, every thread's V8 heap (`fixtures/thread-probe.cjs`, read 0.4 s later)
 * and the server's CPU per aspect (every thread, and the event loop's, from /proc). At the end:
 * medians per variant. BENCH_RSS_DETAIL=1 also prints where the RSS is (bench/mem-smaps.ts) and
 * each thread's heap by space and its GCs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchProposal as proposal } from './ingest-proposal.js'
import { fmt, load, median, rssMb } from './lib.js'
import { memBreakdown } from './mem-smaps.js'
import { cpuMs } from './process-cpu.js'
import { inTurns, startBuild, variantOf } from './reads-start.js'

const ASPECTS = Number(process.env.BENCH_RSS_ASPECTS ?? 1_000_000)
const ROUNDS = Number(process.env.BENCH_RSS_ROUNDS ?? 5)
const VARIANTS = (process.env.BENCH_RSS_VARIANTS ?? '.').split(';').filter(Boolean)
const PROBE = join(import.meta.dirname, 'fixtures', 'thread-probe.cjs')
const BATCH = 1000

interface Outcome {
  rss: number
  main: number
  workers: number[]
  allUs: number
  mainUs: number
  seconds: number
}

async function run(variant: string, round: number): Promise<Outcome> {
  const { root, flags } = variantOf(variant)
  const dataDir = mkdtempSync(join(tmpdir(), 'ingest-rss-data-'))
  const probeDir = mkdtempSync(join(tmpdir(), 'ingest-rss-probe-'))
  const app = await startBuild(root, dataDir, {
    extraFlags: flags,
    cwd: probeDir,
    env: { CATALOG_DURABILITY: 'full', BENCH_THREAD_PROBE: probeDir, NODE_OPTIONS: `--require ${PROBE}` },
  })
  const pid = app.child.pid as number
  try {
    // Each round writes other datasets, so no run finds an entity of another.
    const offset = 3_000_000_000 + round * 10_000_000
    const before = cpuMs(pid)
    const started = Date.now()
    const result = await load({
      url: app.url,
      path: '/aspects?action=ingestProposalBatch',
      body: (n) =>
        JSON.stringify({
          proposals: Array.from({ length: BATCH }, (_, k) => proposal(offset + n * BATCH + k)),
        }),
      connections: 4,
      amount: Math.ceil(ASPECTS / BATCH),
    })
    const rss = rssMb(pid)
    const after = cpuMs(pid)
    // BENCH_RSS_DETAIL=1: where that RSS is (file vs anonymous, glibc's arenas), read at once.
    const where = process.env.BENCH_RSS_DETAIL ? memBreakdown(pid) : undefined
    const seconds = (Date.now() - started) / 1000
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`)
    await new Promise((resolve) => setTimeout(resolve, 400))
    const probes = readdirSync(probeDir)
      .filter((f) => f.startsWith(`${pid}-`) && f.endsWith('.json'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(probeDir, f), 'utf8')) as {
            main: boolean
            totalMb: number
            usedMb: number
            spaces: Record<string, number>
            gc: Record<string, { n: number; ms: number }>
          },
      )
    // BENCH_RSS_DETAIL=1: each thread's heap by space and its GCs, to tell live data from room.
    if (where) process.stdout.write(`  memory: ${JSON.stringify(where)}\n`)
    if (process.env.BENCH_RSS_DETAIL)
      for (const p of probes)
        process.stdout.write(
          `  ${p.main ? 'main' : 'worker'}: total ${p.totalMb} MB, used ${p.usedMb} MB, spaces ${JSON.stringify(p.spaces)}, gc ${JSON.stringify(p.gc)}\n`,
        )
    const aspects = result.total * BATCH
    return {
      rss,
      main: probes.find((p) => p.main)?.totalMb ?? Number.NaN,
      workers: probes.filter((p) => !p.main).map((p) => p.totalMb),
      allUs: before && after ? ((after.all - before.all) * 1000) / aspects : Number.NaN,
      mainUs: before && after ? ((after.main - before.main) * 1000) / aspects : Number.NaN,
      seconds,
    }
  } finally {
    await app.stop()
    rmSync(dataDir, { recursive: true, force: true })
    rmSync(probeDir, { recursive: true, force: true })
  }
}

const outcomes = await inTurns(VARIANTS, ROUNDS, async (variant, round) => {
  const out = await run(variant, round)
  process.stdout.write(
    `${variant}: RSS ${fmt(out.rss)} MB; main heap ${out.main} MB, workers ${out.workers.join(' / ')} MB; CPU per aspect ${fmt(out.allUs, 1)} µs (event loop ${fmt(out.mainUs, 1)}); ${fmt(out.seconds, 1)} s\n`,
  )
  return out
})
for (const [variant, outs] of outcomes) {
  const med = (f: (o: Outcome) => number) => median(outs.map(f))
  process.stdout.write(
    `median ${variant}: RSS ${fmt(med((o) => o.rss))} MB, main heap ${fmt(
      med((o) => o.main),
      1,
    )} MB, CPU per aspect ${fmt(
      med((o) => o.allUs),
      1,
    )} µs (event loop ${fmt(
      med((o) => o.mainUs),
      1,
    )}), ${fmt(
      med((o) => o.seconds),
      1,
    )} s\n`,
  )
}
