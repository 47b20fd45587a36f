/**
 * Ingest benchmark: single `ingestProposal` requests/s and `ingestProposalBatch` aspects/s
 * over HTTP against the catalog started as `npm start` starts it (all-in-one from its bundle,
 * embedded SQLite, durability full), each beside a baseline measured in the same run: fastify
 * answering a trivial POST, and raw better-sqlite3 inserts of the rows the same proposals
 * write. Then resident memory after 1,000,000 aspects.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, startBundled } from '../test/helpers/spawn.js'
import { benchProposal as proposal } from './ingest-proposal.js'
import { fmt, load, report, rssMb } from './lib.js'
import { allUs, cpuMs, perUnit } from './process-cpu.js'
import { IngestRows, rawInsertRate } from './raw-insert-baseline.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const DURATION = Math.max(3, Math.round(10 * SCALE))
const BATCH = 100

export async function ingestBench(): Promise<string[]> {
  const lines: string[] = []
  /** A line printed at once (as `report` prints its own) and returned. */
  const say = (line: string) => {
    process.stdout.write(`${line}\n`)
    lines.push(line)
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'))
  const trivial = await startApp('bench/fixtures/trivial-server.ts', {})
  const catalog = await startBundled('all-in-one', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'off',
    CATALOG_LOG_LEVEL: 'info',
    CATALOG_DURABILITY: 'full',
    // BENCH_CPU_PROF=<dir>: the catalog writes a V8 CPU profile there when it stops.
    ...(process.env.BENCH_CPU_PROF
      ? { NODE_OPTIONS: `--require ${join(import.meta.dirname, 'fixtures', 'cpu-profile.cjs')}` }
      : {}),
  }).catch(async (err) => {
    await trivial.stop()
    throw err
  })
  try {
    process.stdout.write(`ingest benchmark: ${DURATION}s per run, 32 connections, data in ${dir}\n`)
    const sample = JSON.stringify({ proposal: proposal(0) })
    // Warm both servers (JIT, SQLite page cache) before anything is measured.
    await load({ url: trivial.url, path: '/echo', body: () => sample, durationSec: 2 })
    await load({
      url: catalog.url,
      path: '/aspects?action=ingestProposal',
      body: (n) => JSON.stringify({ proposal: proposal(500_000_000 + n) }),
      durationSec: 2,
    })
    // CPU per request is the steadier figure on a shared machine: throughput moves with whatever
    // else runs during each slot, the CPU a request costs much less.
    const trivialBefore = cpuMs(trivial.child.pid)
    const base = await load({ url: trivial.url, path: '/echo', body: () => sample, durationSec: DURATION })
    const trivialAfter = cpuMs(trivial.child.pid)
    let offset = 1_000_000_000
    const cpuBefore = cpuMs(catalog.child.pid)
    const single = await load({
      url: catalog.url,
      path: '/aspects?action=ingestProposal',
      body: (n) => JSON.stringify({ proposal: proposal(offset + n) }),
      durationSec: DURATION,
    })
    if (single.non2xx > 0 || single.errors > 0)
      throw new Error(`single ingest had ${single.non2xx} non-2xx, ${single.errors} errors`)
    lines.push(
      report(
        'ingestProposal (single)',
        single.requestsPerSec,
        'req/s',
        base.requestsPerSec,
        'fastify trivial POST',
        0.35,
      ),
    )
    const cpuSingle = cpuMs(catalog.child.pid)
    say(
      `  latency p50 ${single.p50} ms, p99 ${single.p99} ms (trivial POST p50 ${base.p50} ms, p99 ${base.p99} ms)`,
    )
    if (cpuBefore !== undefined && cpuSingle !== undefined)
      say(`  server CPU per write ${perUnit(cpuBefore, cpuSingle, single.total, catalog.child.pid)}`)
    if (trivialBefore !== undefined && trivialAfter !== undefined)
      say(`  trivial POST CPU per request ${perUnit(trivialBefore, trivialAfter, base.total)}`)
    if (cpuBefore && cpuSingle && trivialBefore && trivialAfter)
      lines.push(
        report(
          'ingestProposal (single) by CPU',
          1e6 / allUs(cpuBefore, cpuSingle, single.total),
          'per CPU-s',
          1e6 / allUs(trivialBefore, trivialAfter, base.total),
          'fastify trivial POST',
          0.35,
        ),
      )

    // The rows of call `call` of `perCall` proposals (the batch's by default), not timed.
    const callRows =
      (rows: IngestRows, perCall = BATCH) =>
      (call: number) =>
        rows.of(
          Array.from({ length: perCall }, (_, k) => proposal(call * perCall + k)),
          Date.now(),
        )
    // The floor of a single write in the store alone: the rows a proposal for a new dataset
    // writes, raw, one transaction and fsync per call of 1 proposal (a naive durable server) and
    // of 16 (as a group commit gathers them); no HTTP, validation or search index.
    const rawSingle = [1, 16].map((perCall) => {
      const calls = Math.max(20, Math.round((2_000 * SCALE) / perCall))
      const rate = rawInsertRate(
        join(dir, `raw-single-${perCall}.db`),
        calls,
        perCall,
        callRows(new IngestRows(), perCall),
      )
      return `${perCall} per call ${fmt(rate.perSec)}/s, ${fmt(rate.cpuUs)} CPU-µs per proposal`
    })
    const trivialUs =
      trivialBefore && trivialAfter
        ? ` (the trivial POST: ${fmt(allUs(trivialBefore, trivialAfter, base.total))} µs)`
        : ''
    say(
      `  raw insert of the proposals' rows (defaults and change log), a transaction and fsync per call: ${rawSingle.join('; ')}${trivialUs}`,
    )

    offset = 2_000_000_000
    const batch = await load({
      url: catalog.url,
      path: '/aspects?action=ingestProposalBatch',
      body: (n) =>
        JSON.stringify({
          proposals: Array.from({ length: BATCH }, (_, k) => proposal(offset + n * BATCH + k)),
        }),
      connections: 8,
      durationSec: DURATION,
    })
    const cpuBatch = cpuMs(catalog.child.pid)
    if (batch.non2xx > 0 || batch.errors > 0)
      throw new Error(`batch ingest had ${batch.non2xx} non-2xx, ${batch.errors} errors`)
    // The baseline writes what these proposals write: each a new dataset, so its aspect, its
    // four default aspects, a change-log entry for each of the five, and their edges.
    const calls = Math.max(200, Math.round(2_000 * SCALE))
    const raw = rawInsertRate(join(dir, 'raw-baseline.db'), calls, BATCH, callRows(new IngestRows()))
    lines.push(
      report(
        'ingestProposalBatch',
        batch.requestsPerSec * BATCH,
        'aspects/s',
        raw.perSec,
        'raw better-sqlite3 insert of the same rows',
        0.7,
      ),
    )
    if (cpuSingle !== undefined && cpuBatch !== undefined)
      say(
        `  server CPU per aspect ${perUnit(cpuSingle, cpuBatch, batch.total * BATCH, catalog.child.pid)} | raw insert of its rows ${fmt(raw.cpuUs, 1)} µs`,
      )
    if (cpuSingle && cpuBatch)
      lines.push(
        report(
          'ingestProposalBatch by CPU',
          1e6 / allUs(cpuSingle, cpuBatch, batch.total * BATCH),
          'aspects per CPU-s',
          1e6 / raw.cpuUs,
          'raw better-sqlite3 insert of the same rows',
          0.7,
        ),
      )
    // For scale: the proposals' own aspect rows alone (no default aspects, no change log).
    const narrow = rawInsertRate(
      join(dir, 'raw-baseline-narrow.db'),
      calls,
      BATCH,
      callRows(new IngestRows(true)),
    )
    lines.push(
      report(
        "  same, beside a raw insert of the proposals' own aspect rows only",
        batch.requestsPerSec * BATCH,
        'aspects/s',
        narrow.perSec,
        'raw insert, 1 row/aspect',
      ),
    )

    // Resident memory after 1,000,000 aspects (by default; BENCH_SCALE shrinks it).
    const target = Math.round(1_000_000 * SCALE)
    const stored = single.total + batch.total * BATCH
    const remaining = Math.max(0, target - stored)
    offset = 3_000_000_000
    const started = Date.now()
    if (remaining > 0) {
      await load({
        url: catalog.url,
        path: '/aspects?action=ingestProposalBatch',
        body: (n) =>
          JSON.stringify({
            proposals: Array.from({ length: 1000 }, (_, k) => proposal(offset + n * 1000 + k)),
          }),
        connections: 4,
        amount: Math.ceil(remaining / 1000),
      })
    }
    const rss = rssMb(catalog.child.pid as number)
    const verdict = rss < 300 ? 'met' : 'NOT met'
    const line = `resident memory after ${fmt(Math.max(target, stored))} aspects ingested: ${fmt(rss)} MB (target < 300 MB: ${verdict}); last ${fmt(remaining)} took ${fmt((Date.now() - started) / 1000, 1)} s`
    process.stdout.write(`${line}\n`)
    lines.push(line)
  } finally {
    await catalog.stop()
    await trivial.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return lines
}
