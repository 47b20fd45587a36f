/**
 * `node --import tsx bench/rss-after-scale.ts <data dir>`: the scale benchmark's requests to the
 * catalog alone (no baselines, no restarts), then its resident memory, for builds or node flags
 * side by side. Each variant (BENCH_RSS_VARIANTS, `;`-separated, each `<repo copy with a built
 * dist/>`, `<repo copy>|<extra node flags>` or `<repo copy>|<flags>|NAME=value ...` for its
 * environment) is started in turn, BENCH_RSS_ROUNDS times
 * (default 3): A B A B ..., so the machine's load weighs on all alike. Each run sends what the
 * scale benchmark sends to the catalog (the searches of every kind, 2,009 `entitiesV2` reads,
 * 2,009 `/relationships` reads, 2,000 warm-up getLineage POSTs then 420 at each of 1, 3 and 5
 * hops, the same datasets in the same order), waits a second as the benchmark does, and prints
 * RSS (anonymous and files), every thread's V8 heap (`fixtures/thread-probe.cjs`), the server's CPU
 * per request of each phase (every thread, /proc) and the getLineage p95 per hop. At the end:
 * medians per variant. With BENCH_RSS_SNAPSHOT=1 the main thread's heap is written
 * (`--heapsnapshot-signal`) and summed by constructor; with BENCH_RSS_SMAPS=1 the largest
 * anonymous mappings are listed (malloc's arenas among them); BENCH_RSS_HOLD=<seconds> keeps the
 * server up that long after, to look at from outside (gdb: `thread_arena` per thread);
 * BENCH_RSS_LATER=<seconds> reads RSS once more that long after the first reading (what a quiet
 * server settles to). Debug lines `native heap trimmed` in the server's log (CATALOG_LOG_LEVEL=debug
 * in a variant's environment) are counted, with the trims' wall time.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cpuSeconds, fmt, percentile } from './lib.js'
import { pick } from './lineage-scale.js'
import { inTurns, startBuild, variantOf } from './reads-start.js'
import { send } from './scale-http.js'
import { scaleKinds } from './scale-kinds.js'
import { searchBody, warm } from './scale-search.js'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: node --import tsx bench/rss-after-scale.ts <data dir>')
const N = Number(process.env.BENCH_ENTITIES ?? 1_000_000)
const ROUNDS = Number(process.env.BENCH_RSS_ROUNDS ?? 3)
const SNAPSHOT = process.env.BENCH_RSS_SNAPSHOT === '1'
const PROBE = join(import.meta.dirname, 'fixtures', 'thread-probe.cjs')
const enc = encodeURIComponent

interface Probe {
  readonly threadId: number
  readonly main: boolean
  readonly totalMb: number
  readonly usedMb: number
  readonly spaces: Record<string, number>
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Outcome {
  rss: number
  anon: number
  main: number
  mainUsed: number
  workers: number
  cpu: Record<string, number>
  p95: Record<string, number>
  /** RSS and anonymous RSS BENCH_RSS_LATER seconds after the first reading (NaN without). */
  later: number
  laterAnon: number
}

async function run(variant: string): Promise<Outcome> {
  const { root, flags } = variantOf(variant)
  const envText = variant.split('|')[2]
  // A third part sets the server's environment: `NAME=value NAME=value`.
  const env = Object.fromEntries(
    (envText ?? '')
      .split(' ')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  )
  const probeDir = mkdtempSync(join(tmpdir(), 'lineage-rss-probe-'))
  const app = await startBuild(root, dataDir as string, {
    extraFlags: [...flags, ...(SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2'] : [])],
    cwd: probeDir,
    env: { ...env, BENCH_THREAD_PROBE: probeDir, NODE_OPTIONS: `--require ${PROBE}` },
  })
  const pid = app.child.pid as number
  // The native heap trims the server logs (at debug level): how many, and their wall time.
  const trims: number[] = []
  app.child.stdout?.on('data', (chunk: Buffer) => {
    for (const m of chunk.toString().matchAll(/"ms":([\d.e-]+)[^\n]*native heap trimmed/g))
      trims.push(Number(m[1]))
  })
  const cpu: Record<string, number> = {}
  const p95: Record<string, number> = {}
  const phase = async (name: string, calls: number, body: () => Promise<void>) => {
    const before = cpuSeconds(pid)
    await body()
    cpu[name] = ((cpuSeconds(pid) - before) * 1e6) / calls
  }
  try {
    await warm(app.url)
    let searches = 0
    await phase('search', 1, async () => {
      for (const kind of scaleKinds)
        for (let i = 0; i < kind.inputs.length + 210; i++) {
          const input = kind.inputs[i % kind.inputs.length] as string
          await send(`${app.url}/entities?action=${kind.action}`, searchBody(kind, input))
          searches++
        }
    })
    cpu.search = (cpu.search as number) / searches
    // As the scale benchmark orders them: 9 first, 1,000 warm-ups (i ≥ 1,000), 1,000 timed.
    const order = [
      ...Array.from({ length: 9 }, (_, i) => i),
      ...Array.from({ length: 2000 }, (_, i) => (i + 1000) % 2000),
    ]
    await phase('entitiesV2', order.length, async () => {
      for (const i of order) await send(`${app.url}/entitiesV2/${enc(pick(N, i))}`)
    })
    await phase('relationships', order.length, async () => {
      for (const i of order)
        await send(
          `${app.url}/relationships?direction=${i % 2 ? 'INCOMING' : 'OUTGOING'}&urn=${enc(pick(N, i))}&types=List(DownstreamOf)`,
        )
    })
    const lineage = (i: number, hops: number, from = 0) =>
      send(`${app.url}/relationships?action=getLineage`, {
        urn: pick(N, from + i),
        direction: i % 2 ? 'DOWNSTREAM' : 'UPSTREAM',
        maxHops: hops,
        start: 0,
        count: 100,
      })
    await phase('lineage warm', 2000, async () => {
      for (let i = 0; i < 2000; i++) await lineage(i, 1 + (i % 5), Math.floor(N / 2))
    })
    for (const hops of [1, 3, 5]) {
      const ms: number[] = []
      await phase(`lineage ${hops}`, 200, async () => {
        for (let i = 0; i < 200; i += 10) await lineage(i, hops)
        for (let i = 200; i < 400; i++) await lineage(i, hops)
        for (let i = 0; i < 200; i++) {
          const t = performance.now()
          await lineage(i, hops)
          ms.push(performance.now() - t)
        }
      })
      // The phase's CPU is over 420 requests.
      cpu[`lineage ${hops}`] = ((cpu[`lineage ${hops}`] as number) * 200) / 420
      p95[`lineage ${hops}`] = percentile(ms, 95)
    }
    await sleep(1000)
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1]) / 1024
    const probes = readdirSync(probeDir)
      .filter((f) => f.startsWith(`${pid}-`) && f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(probeDir, f), 'utf8')) as Probe)
    const main = probes.find((p) => p.main)
    const out: Outcome = {
      rss: kb('VmRSS'),
      anon: kb('RssAnon'),
      main: main?.totalMb ?? 0,
      mainUsed: main?.usedMb ?? 0,
      workers: probes.filter((p) => !p.main).reduce((s, p) => s + p.totalMb, 0),
      cpu,
      p95,
      later: Number.NaN,
      laterAnon: Number.NaN,
    }
    if (process.env.BENCH_RSS_LATER) {
      await sleep(Number(process.env.BENCH_RSS_LATER) * 1000)
      const now = readFileSync(`/proc/${pid}/status`, 'utf8')
      const at = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(now)?.[1]) / 1024
      out.later = at('VmRSS')
      out.laterAnon = at('RssAnon')
      process.stdout.write(
        `  ${process.env.BENCH_RSS_LATER} s later: RSS ${fmt(out.later)} MB (anonymous ${fmt(out.laterAnon)})\n`,
      )
    }
    if (trims.length > 0)
      process.stdout.write(
        `  native heap trims: ${trims.length}, ms each: median ${fmt(percentile([...trims], 50), 2)}, max ${fmt(Math.max(...trims), 2)}\n`,
      )
    process.stdout.write(
      `${variant}: RSS ${fmt(out.rss)} MB (anonymous ${fmt(out.anon)}); main heap ${out.main} MB (used ${out.mainUsed}; ${JSON.stringify(main?.spaces)}), workers ${probes
        .filter((p) => !p.main)
        .map((p) => `${p.totalMb}`)
        .join(' + ')} MB; CPU µs/request ${Object.entries(cpu)
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', ')}; lineage p95 ms ${Object.entries(p95)
        .map(([k, v]) => `${k} ${fmt(v, 2)}`)
        .join(', ')}\n`,
    )
    if (SNAPSHOT) await snapshot(pid, probeDir)
    if (process.env.BENCH_RSS_SMAPS === '1') printSmaps(pid)
    // BENCH_RSS_HOLD=<seconds>: the server stays up that long after, for a look from outside.
    if (process.env.BENCH_RSS_HOLD) {
      process.stdout.write(`  holding pid ${pid} for ${process.env.BENCH_RSS_HOLD} s\n`)
      await sleep(Number(process.env.BENCH_RSS_HOLD) * 1000)
    }
    return out
  } finally {
    await app.stop()
    rmSync(probeDir, { recursive: true, force: true })
  }
}

/**
 * The process's resident anonymous memory by mapping, largest first (BENCH_RSS_SMAPS=1): malloc's
 * arenas show as mappings of up to 64 MB, V8's heap as many of 256 KB, the main arena as [heap].
 */
function printSmaps(pid: number): void {
  const maps: Array<{ head: string; size: number; anon: number }> = []
  let cur: { head: string; size: number; anon: number } | undefined
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      cur = { head: line, size: 0, anon: 0 }
      maps.push(cur)
    } else if (cur) {
      const m = /^(Size|Anonymous):\s+(\d+) kB/.exec(line)
      if (m?.[1] === 'Size') cur.size = Number(m[2])
      else if (m?.[1] === 'Anonymous') cur.anon = Number(m[2])
    }
  }
  const small = maps.filter((m) => m.size <= 1024 && m.anon > 0)
  process.stdout.write(
    `  anonymous in mappings of <= 1 MB (V8 pages and the like): ${fmt(small.reduce((s, m) => s + m.anon, 0) / 1024, 1)} MB in ${small.length}\n`,
  )
  for (const m of maps
    .filter((m) => m.size > 1024 && m.anon > 512)
    .sort((a, b) => b.anon - a.anon)
    .slice(0, 25))
    process.stdout.write(
      `  ${fmt(m.anon / 1024, 1)} MB anonymous of ${fmt(m.size / 1024, 1)} MB  ${m.head.split(/\s+/).slice(5).join(' ') || '(anon)'} ${m.head.split(' ')[0]}\n`,
    )
}

/** Writes the main thread's heap (SIGUSR2) and prints the constructors holding the most. */
async function snapshot(pid: number, dir: string): Promise<void> {
  process.kill(pid, 'SIGUSR2')
  let file: string | undefined
  for (let i = 0; i < 600 && !file; i++) {
    await sleep(500)
    file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot'))
  }
  // Written when its size stops changing for 3 s.
  for (let size = -1, still = 0; file && still < 3; ) {
    await sleep(1000)
    const now = statSync(join(dir, file)).size
    still = now === size && now > 0 ? still + 1 : 0
    size = now
  }
  if (!file) return
  const snap = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }
    nodes: number[]
    strings: string[]
  }
  const fields = snap.snapshot.meta.node_fields
  const width = fields.length
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [
    number,
    number,
    number,
  ]
  const types = snap.snapshot.meta.node_types[0]
  const sums = new Map<string, { n: number; bytes: number }>()
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt] as number] as string
    const name =
      type === 'object' || type === 'closure'
        ? (snap.strings[snap.nodes[i + nameAt] as number] as string)
        : ''
    const key = `${type} ${name.slice(0, 60)}`
    const s = sums.get(key) ?? { n: 0, bytes: 0 }
    s.n++
    s.bytes += snap.nodes[i + sizeAt] as number
    sums.set(key, s)
  }
  const top = [...sums].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 30)
  for (const [k, s] of top) process.stdout.write(`  ${fmt(s.bytes / 1048576, 2)} MB  ${fmt(s.n)}  ${k}\n`)
}

const variants = (process.env.BENCH_RSS_VARIANTS ?? process.cwd()).split(';')
const results = await inTurns(variants, ROUNDS, run)
const med = (xs: number[]) => percentile([...xs], 50)
for (const [v, outs] of results) {
  const keys = Object.keys(outs[0]?.cpu ?? {})
  process.stdout.write(
    `median ${v}: RSS ${fmt(med(outs.map((o) => o.rss)))} MB (anonymous ${fmt(med(outs.map((o) => o.anon)))})${process.env.BENCH_RSS_LATER ? `, ${process.env.BENCH_RSS_LATER} s later ${fmt(med(outs.map((o) => o.later)))} MB (anonymous ${fmt(med(outs.map((o) => o.laterAnon)))})` : ''}, main heap ${fmt(med(outs.map((o) => o.main)), 1)} MB, workers ${fmt(med(outs.map((o) => o.workers)), 1)} MB; CPU µs ${keys
      .map((k) => `${k} ${fmt(med(outs.map((o) => o.cpu[k] as number)))}`)
      .join(', ')}; p95 ms ${['lineage 1', 'lineage 3', 'lineage 5']
      .map((k) => `${k} ${fmt(med(outs.map((o) => o.p95[k] as number)), 2)}`)
      .join(', ')}\n`,
  )
}
