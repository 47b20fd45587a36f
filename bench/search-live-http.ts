/**
 * `node --import tsx bench/search-live-http.ts <repo> [<repo>...]`: server CPU per single
 * `ingestProposal` over HTTP, the catalog started from each repository copy's bundle (`dist/`, as
 * `npm start` starts it: all-in-one, embedded SQLite, durability full), the copies in turns,
 * BENCH_ROUNDS rounds (default 5) of BENCH_SECONDS (default 8) of new datasets from 32 connections
 * (the writes of `bench/ingest.ts`). Prints, per copy, the medians of the rounds of the server's CPU
 * per write (all threads, the event loop, the busiest other thread: the search worker) and of
 * the requests/s, each beside the first copy's. Each copy's servers listen on BENCH_PORT (default
 * 19150) and up. BENCH_KIND=batch sends `ingestProposalBatch` calls of 100 new datasets from 8
 * connections instead, and gives the CPU per aspect.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { benchProposal as proposal } from './ingest-proposal.js'
import { fmt, load, median } from './lib.js'
import { cpuMs } from './process-cpu.js'

const roots = process.argv.slice(2).map((r) => resolve(r))
if (roots.length === 0) throw new Error('give the repository copies to compare')
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8)
const PORT = Number(process.env.BENCH_PORT ?? 19150)
const BATCH = process.env.BENCH_KIND === 'batch' ? 100 : 0

/** The n-th request's body: one proposal, or BATCH of them. */
const body = (n: number) =>
  JSON.stringify(
    BATCH > 0
      ? { proposals: Array.from({ length: BATCH }, (_, k) => proposal(n * BATCH + k)) }
      : { proposal: proposal(n) },
  )

interface Server {
  readonly url: string
  readonly child: ChildProcess
  readonly dir: string
}

function start(root: string, port: number): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-live-http-'))
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), 'all-in-one'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dir,
      CATALOG_AUTH: 'off',
      CATALOG_LOG_LEVEL: 'info',
      CATALOG_DURABILITY: 'full',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  return new Promise((done, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (/"url":"http/.test(output)) done({ url: `http://127.0.0.1:${port}`, child, dir })
    }
    child.stdout?.on('data', onData)
    child.stderr?.on('data', onData)
    child.once('exit', (code) => fail(new Error(`the catalog exited with ${code}:\n${output}`)))
  })
}

async function stop(s: Server): Promise<void> {
  if (s.child.exitCode === null) {
    const exited = new Promise((done) => s.child.once('exit', done))
    s.child.kill('SIGTERM')
    await exited
  }
  rmSync(s.dir, { recursive: true, force: true })
}

/** Waits until the search index has applied the whole change log (`/metrics`' lag is 0). */
async function indexed(url: string): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 120_000; ) {
    const text = await (await fetch(`${url}/metrics`)).text()
    if (/catalog_search_changelog_lag\{[^}]*\} 0\b/.test(text)) return
    await new Promise((done) => setTimeout(done, 100))
  }
  throw new Error('the search index did not catch up within 120 s')
}

interface Sample {
  readonly all: number
  readonly main: number
  readonly busiest: number
  readonly rps: number
}

async function measure(root: string, port: number, offset: number): Promise<Sample> {
  const server = await start(root, port)
  try {
    const pid = server.child.pid as number
    const path = BATCH > 0 ? '/aspects?action=ingestProposalBatch' : '/aspects?action=ingestProposal'
    const connections = BATCH > 0 ? 8 : 32
    const warm = (n: number) => body(offset / Math.max(1, BATCH) + 500_000 + n)
    await load({ url: server.url, path, body: warm, connections, durationSec: 2 })
    const before = cpuMs(pid)
    const run = await load({
      url: server.url,
      path,
      body: (n) => body(offset / Math.max(1, BATCH) + n),
      connections,
      durationSec: SECONDS,
    })
    // The search index may still be applying the writes (its thread runs at a lower priority):
    // their indexing belongs to them.
    await indexed(server.url)
    const after = cpuMs(pid)
    if (!before || !after) throw new Error('no /proc CPU readings')
    if (run.non2xx > 0 || run.errors > 0) throw new Error(`${run.non2xx} non-2xx, ${run.errors} errors`)
    let busiest = 0
    for (const [tid, ms] of after.threads)
      if (tid !== String(pid)) busiest = Math.max(busiest, ms - (before.threads.get(tid) ?? 0))
    const per = (ms: number) => (ms * 1000) / (run.total * Math.max(1, BATCH))
    return {
      all: per(after.all - before.all),
      main: per(after.main - before.main),
      busiest: per(busiest),
      rps: run.requestsPerSec,
    }
  } finally {
    await stop(server)
  }
}

const samples = roots.map(() => [] as Sample[])
for (let round = 0; round < ROUNDS; round++)
  for (const [k, root] of roots.entries())
    (samples[k] as Sample[]).push(await measure(root, PORT + k, (round * roots.length + k) * 10_000_000))
const base = samples[0] as Sample[]
for (const [k, root] of roots.entries()) {
  const s = samples[k] as Sample[]
  const col = (key: keyof Sample, digits = 0) => {
    const m = median(s.map((x) => x[key]))
    const ratio = k === 0 ? '' : ` (${fmt(m / median(base.map((x) => x[key])), 2)}×)`
    return `${fmt(m, digits)}${ratio} [${s.map((x) => fmt(x[key])).join('/')}]`
  }
  process.stdout.write(
    `${root}: server CPU-µs per ${BATCH > 0 ? 'aspect' : 'write'} ${col('all')}, event loop ${col('main')}, busiest other thread ${col('busiest')}; ${col('rps')} req/s\n`,
  )
}
