/**
 * `node --import tsx bench/reads-cold-ab.ts <data dir>`: the scale benchmark's sequential cold
 * reads (`GET /entitiesV2/<urn>`, then `GET /relationships`, the same datasets in the same
 * order) against builds in turns, printing the server's CPU per read from /proc: every thread,
 * and the event loop apart. Each variant (BENCH_READS_VARIANTS, `;`-separated) is a repo copy
 * with a built `dist/`, or `<repo copy>|<extra node flags>` (`--cpu-prof --cpu-prof-dir=<dir>`),
 * or `bare`: node's http server answering a fixed 4.2 KB JSON. Each is started
 * BENCH_READS_ROUNDS times (default 5), A B A B ..., so the machine's load weighs on all alike.
 *
 * A run waits for the server to be idle (a start leaves the search worker warming its caches for
 * seconds), then per kind reads 9 datasets, BENCH_READS_WARM (default 1,000) untimed others, and
 * times 1,000, as the scale benchmark does. BENCH_READS_SEARCH=1 first sends the scale
 * benchmark's searches; BENCH_READS_PATH=<path> reads that path every time instead (`/health`:
 * the framework's own cost); BENCH_READS_THREADS=1 prints the CPU of every thread.
 *
 * What it showed (2026-11-26, 1M datasets): V8 is still optimizing the request path during the
 * timed reads. After 1,000 warm-ups `entitiesV2` took ~480 µs (event loop ~330, V8's compiler
 * threads ~140); after 6,000, ~270 µs (event loop ~260, others ~0). The bare server the same
 * way: 190 → 70 µs.
 */
import { readFileSync } from 'node:fs'
import { fmt, median } from './lib.js'
import { pick } from './lineage-scale.js'
import { cpuMs } from './process-cpu.js'
import { inTurns, startBuild, variantOf } from './reads-start.js'
import { fixedJsonServer, send } from './scale-http.js'
import { scaleKinds } from './scale-kinds.js'
import { searchBody, warm } from './scale-search.js'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: node --import tsx bench/reads-cold-ab.ts <data dir>')
const N = Number(process.env.BENCH_ENTITIES ?? 1_000_000)
const ROUNDS = Number(process.env.BENCH_READS_ROUNDS ?? 5)
const TIMED = 1000
const WARM = Number(process.env.BENCH_READS_WARM ?? TIMED)
const SEARCH = process.env.BENCH_READS_SEARCH === '1'
const FIXED_PATH = process.env.BENCH_READS_PATH
const THREADS = process.env.BENCH_READS_THREADS === '1'
const enc = encodeURIComponent

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits (at most 120 s) until the server uses under 3 % of a core over a second. */
async function settle(pid: number): Promise<void> {
  const started = performance.now()
  for (let before = cpuMs(pid)?.all ?? 0; performance.now() - started < 120_000; ) {
    await sleep(1000)
    const now = cpuMs(pid)?.all ?? 0
    if (now - before < 30) return
    before = now
  }
}

/** CPU µs per read of each kind: every thread, and the event loop. */
type Outcome = Record<string, { all: number; main: number }>

const kinds: Record<string, (url: string, i: number) => string> = {
  entitiesV2: (url, i) => `${url}/entitiesV2/${enc(pick(N, i))}`,
  relationships: (url, i) =>
    `${url}/relationships?direction=${i % 2 ? 'INCOMING' : 'OUTGOING'}&urn=${enc(pick(N, i))}&types=List(DownstreamOf)`,
}

/** CPU µs per read of every thread between two readings, by thread (`event loop`, `node#<tid>`). */
function byThread(
  pid: number,
  before: NonNullable<ReturnType<typeof cpuMs>>,
  after: NonNullable<ReturnType<typeof cpuMs>>,
): string {
  const parts: string[] = []
  for (const [tid, ms] of after.threads) {
    const us = ((ms - (before.threads.get(tid) ?? 0)) * 1000) / TIMED
    if (us <= 0) continue
    let name = 'event loop'
    if (tid !== String(pid)) {
      try {
        name = `${readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim()}#${tid}`
      } catch {
        name = `?#${tid}`
      }
    }
    parts.push(`${name} ${fmt(us)}`)
  }
  return parts.join(', ')
}

async function run(variant: string): Promise<Outcome> {
  const { root, flags } = variantOf(variant)
  const bare = root === 'bare'
  const app = bare
    ? await fixedJsonServer(JSON.stringify({ value: 'x'.repeat(4200) }))
    : await startBuild(root, dataDir as string, { extraFlags: flags })
  const pid = app.child.pid as number
  const out: Outcome = {}
  try {
    await settle(pid)
    if (SEARCH && !bare) {
      await warm(app.url)
      for (const kind of scaleKinds)
        for (let i = 0; i < kind.inputs.length + 210; i++)
          await send(
            `${app.url}/entities?action=${kind.action}`,
            searchBody(kind, kind.inputs[i % kind.inputs.length] as string),
          )
    }
    for (const [name, ofKind] of Object.entries(kinds)) {
      const url = bare
        ? (base: string) => `${base}/`
        : FIXED_PATH
          ? (base: string) => `${base}${FIXED_PATH}`
          : ofKind
      for (let i = 0; i < 9; i++) await send(url(app.url, i))
      for (let i = TIMED; i < TIMED + WARM; i++) await send(url(app.url, i))
      await settle(pid)
      const before = cpuMs(pid)
      for (let i = 0; i < TIMED; i++) await send(url(app.url, i))
      const after = cpuMs(pid)
      if (!before || !after) throw new Error('no /proc: CPU per read is read from Linux /proc')
      if (THREADS) process.stdout.write(`  ${name} by thread: ${byThread(pid, before, after)}\n`)
      out[name] = {
        all: ((after.all - before.all) * 1000) / TIMED,
        main: ((after.main - before.main) * 1000) / TIMED,
      }
    }
    process.stdout.write(
      `${variant}: ${Object.entries(out)
        .map(([k, v]) => `${k} ${fmt(v.all)} µs (event loop ${fmt(v.main)})`)
        .join(', ')}\n`,
    )
    return out
  } finally {
    await app.stop()
  }
}

const variants = (process.env.BENCH_READS_VARIANTS ?? process.cwd()).split(';')
const results = await inTurns(variants, ROUNDS, run)
const med = (outs: Outcome[], kind: string, of: 'all' | 'main') =>
  fmt(median(outs.map((o) => o[kind]?.[of] ?? 0)))
for (const [v, outs] of results)
  process.stdout.write(
    `median ${v}: ${Object.keys(kinds)
      .map((k) => `${k} ${med(outs, k, 'all')} µs (event loop ${med(outs, k, 'main')})`)
      .join(', ')}\n`,
  )
