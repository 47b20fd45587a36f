/**
 * `node --import tsx bench/read-after-mix.ts <data dir>`: what a catalog's cold `entitiesV2` reads
 * cost before and after a batch of other requests, and what each thread holds. The bundle is
 * started on the dir (a copy of the scale benchmark's: the server writes to it) once per variant,
 * in turn; each run reads BENCH_READS distinct datasets (default 2,000) in 3 blocks, sends the mix
 * (BENCH_MIX: `search`, the scale benchmark's 31 searches ×30; `lineage`, 1,000 one-hop
 * getLineage POSTs; `sleep`, 8 s idle), reads 3 more blocks, and prints per block the server CPU
 * per read by thread (main, worker threads, the rest: V8's compiler and GC helpers, libuv), the
 * GCs of the main thread, and after each phase RSS and every thread's V8 heap (preloaded
 * `fixtures/thread-probe.cjs`). Variants (BENCH_VARIANTS): `flags`, the server's node flags
 * (`npm start`'s); `v8-default`, V8's 16 MB semi-spaces instead.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startBundled } from '../test/helpers/spawn.js'
import { fmt } from './lib.js'
import { pick } from './lineage-scale.js'
import { send } from './scale-http.js'
import { scaleKinds } from './scale-kinds.js'
import { searchBody } from './scale-search.js'

const DATASETS = 100_000
const READS = Number(process.env.BENCH_READS ?? 2_000)
const MIX = process.env.BENCH_MIX ?? 'search'
const VARIANTS: Record<string, string[] | undefined> = {
  flags: undefined,
  'v8-default': ['--max-semi-space-size=16'],
}
const PROBE = join(import.meta.dirname, 'fixtures', 'thread-probe.cjs')
const enc = encodeURIComponent

interface Probe {
  readonly threadId: number
  readonly tid: string
  readonly main: boolean
  readonly totalMb: number
  readonly spaces: Record<string, number>
  readonly gc: Record<string, { n: number; ms: number }>
}

const probes = (dir: string, pid: number): Probe[] =>
  readdirSync(dir)
    .filter((f) => f.startsWith(`${pid}-`) && f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Probe)

/** CPU ms so far per thread group: `main`, `worker<id>`, `other`. */
function threadCpu(pid: number, workers: Map<string, string>): Map<string, number> {
  const out = new Map<string, number>()
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
    } catch {
      continue // the thread ended
    }
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    const group = Number(tid) === pid ? 'main' : (workers.get(tid) ?? 'other')
    out.set(group, (out.get(group) ?? 0) + (Number(f[11]) + Number(f[12])) * 10)
  }
  return out
}

const perRead = (a: Map<string, number>, b: Map<string, number>, n: number) =>
  [...b]
    .map(([k, v]) => [k, ((v - (a.get(k) ?? 0)) * 1000) / n] as const)
    .filter(([, us]) => us > 0)
    .map(([k, us]) => `${k} ${fmt(us)}`)
    .join(', ')

async function run(variant: string, dataDir: string): Promise<void> {
  const probeDir = mkdtempSync(join(tmpdir(), 'bench-thread-probe-'))
  const env = { PORT: '0', CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' }
  const probeEnv = { BENCH_THREAD_PROBE: probeDir, NODE_OPTIONS: `--require ${PROBE}` }
  const app = await startBundled('all-in-one', { ...env, ...probeEnv }, 600_000, VARIANTS[variant])
  const pid = app.child.pid as number
  const say = (text: string) => process.stdout.write(`${variant}: ${text}\n`)
  try {
    for (let i = 0; i < 50; i++) await send(`${app.url}/entitiesV2/${enc(pick(DATASETS, 90_000 + i))}`)
    await new Promise((r) => setTimeout(r, 700))
    const workers = new Map(
      probes(probeDir, pid)
        .filter((p) => !p.main)
        .map((p) => [p.tid, `worker${p.threadId}`]),
    )
    const memory = (phase: string) => {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      const mb = (k: string) => fmt(Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1]) / 1024)
      const heaps = probes(probeDir, pid)
        .map((p) => `${p.main ? 'main' : `worker${p.threadId}`} ${p.totalMb} (new ${p.spaces.new_space})`)
        .join(', ')
      say(`${phase}: RSS ${mb('VmRSS')} MB (anonymous ${mb('RssAnon')}); V8 heaps MB: ${heaps}`)
    }
    const block = async (name: string, from: number) => {
      const gc = probes(probeDir, pid).find((p) => p.main)?.gc.minor ?? { n: 0, ms: 0 }
      const before = threadCpu(pid, workers)
      for (let i = 0; i < READS; i++) await send(`${app.url}/entitiesV2/${enc(pick(DATASETS, from + i))}`)
      const cpu = perRead(before, threadCpu(pid, workers), READS)
      await new Promise((r) => setTimeout(r, 700))
      const after = probes(probeDir, pid).find((p) => p.main)?.gc.minor ?? { n: 0, ms: 0 }
      say(
        `${name}: CPU µs per read: ${cpu}; main thread scavenges ${after.n - gc.n}, ${fmt(after.ms - gc.ms, 1)} ms`,
      )
    }
    for (let b = 0; b < 3; b++) await block(`reads before, block ${b + 1}`, b * 5_000)
    memory('before the mix')
    const before = threadCpu(pid, workers)
    let sent = 0
    if (MIX === 'sleep') await new Promise((r) => setTimeout(r, 8_000))
    else if (MIX === 'lineage')
      for (; sent < 1_000; sent++)
        await send(`${app.url}/relationships?action=getLineage`, {
          urn: pick(DATASETS, 60_000 + sent),
          direction: 'UPSTREAM',
          maxHops: 1,
        })
    else
      for (let r = 0; r < 30; r++)
        for (const kind of scaleKinds)
          for (const input of kind.inputs) {
            await send(`${app.url}/entities?action=${kind.action}`, searchBody(kind, input))
            sent++
          }
    if (sent > 0)
      say(`${MIX}: ${sent} requests, CPU µs each: ${perRead(before, threadCpu(pid, workers), sent)}`)
    for (let b = 0; b < 3; b++) await block(`reads after, block ${b + 1}`, 20_000 + b * 5_000)
    memory('after')
  } finally {
    await app.stop()
    rmSync(probeDir, { recursive: true, force: true })
  }
}

const dataDir = process.argv[2]
if (!dataDir)
  throw new Error('usage: node --import tsx bench/read-after-mix.ts <data dir of the scale benchmark>')
for (const variant of (process.env.BENCH_VARIANTS ?? 'v8-default,flags').split(','))
  await run(variant, dataDir)
