/**
 * `node --import tsx bench/mem-ingest-cpu.ts`: the ingest benchmark's CPU lines (server CPU per
 * single `ingestProposal` and per aspect of 100-proposal `ingestProposalBatch` calls, every thread,
 * from /proc) for builds or node flags side by side, without its 1,000,000-aspect memory phase
 * (bench/ingest-rss.ts has that). BENCH_MEM_VARIANTS as bench/ingest-rss.ts's variants; each is
 * started in turn on an empty data dir (A B A B ..., BENCH_MEM_ROUNDS rounds, default 5), warmed
 * 2 s, then loaded BENCH_MEM_SECONDS (default 8) with single writes over 32 connections and as
 * long with batches over 8, as bench/ingest.ts does. At the end: medians per variant.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { benchProposal as proposal } from './ingest-proposal.js'
import { fmt, load, median } from './lib.js'
import { cpuMs } from './process-cpu.js'
import { inTurns, startBuild, variantOf } from './reads-start.js'

const ROUNDS = Number(process.env.BENCH_MEM_ROUNDS ?? 5)
const SECONDS = Number(process.env.BENCH_MEM_SECONDS ?? 8)
const VARIANTS = (process.env.BENCH_MEM_VARIANTS ?? '.').split(';').filter(Boolean)
const BATCH = 100

interface Outcome {
  singleUs: number
  batchUs: number
}

const cpuOf = (pid: number) => cpuMs(pid)?.all ?? Number.NaN

const outcomes = await inTurns(VARIANTS, ROUNDS, async (variant, round): Promise<Outcome> => {
  const { root, flags } = variantOf(variant)
  const dataDir = mkdtempSync(join(tmpdir(), 'mem-ingest-cpu-'))
  const app = await startBuild(root, dataDir, { extraFlags: flags, env: { CATALOG_DURABILITY: 'full' } })
  const pid = app.child.pid as number
  try {
    const offset = round * 100_000_000
    await load({
      url: app.url,
      path: '/aspects?action=ingestProposal',
      body: (n) => JSON.stringify({ proposal: proposal(offset + 50_000_000 + n) }),
      durationSec: 2,
    })
    const before = cpuOf(pid)
    const single = await load({
      url: app.url,
      path: '/aspects?action=ingestProposal',
      body: (n) => JSON.stringify({ proposal: proposal(offset + n) }),
      durationSec: SECONDS,
    })
    const middle = cpuOf(pid)
    const batch = await load({
      url: app.url,
      path: '/aspects?action=ingestProposalBatch',
      body: (n) =>
        JSON.stringify({
          proposals: Array.from({ length: BATCH }, (_, k) => proposal(offset + 10_000_000 + n * BATCH + k)),
        }),
      connections: 8,
      durationSec: SECONDS,
    })
    const after = cpuOf(pid)
    for (const r of [single, batch])
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`)
    const out = {
      singleUs: ((middle - before) * 1000) / single.total,
      batchUs: ((after - middle) * 1000) / (batch.total * BATCH),
    }
    process.stdout.write(
      `${variant}: CPU per single write ${fmt(out.singleUs)} µs (${fmt(single.total)} writes), per batched aspect ${fmt(out.batchUs, 1)} µs (${fmt(batch.total * BATCH)} aspects)\n`,
    )
    return out
  } finally {
    await app.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
})
for (const [variant, outs] of outcomes)
  process.stdout.write(
    `median ${variant}: CPU per single write ${fmt(median(outs.map((o) => o.singleUs)))} µs, per batched aspect ${fmt(
      median(outs.map((o) => o.batchUs)),
      1,
    )} µs\n`,
  )
