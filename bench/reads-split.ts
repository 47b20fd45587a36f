/**
 * `node --import tsx bench/reads-split.ts <data dir>`: where the CPU of the scale benchmark's
 * cold reads goes, for builds in turns (BENCH_SPLIT_VARIANTS, `;`-separated: a repo copy with a
 * built `dist/`, `<copy>|<node flags>` or `<copy>|<flags>|NAME=value ...` for its environment),
 * BENCH_SPLIT_ROUNDS times (default 5): per read of `GET /entitiesV2/<urn>` and of
 * `GET /relationships` (datasets picked as the benchmark picks them, each run its own, 1,000
 * untimed others first), the server's CPU (every thread; the event loop's user and system time
 * apart), page faults, read calls and bytes (/proc/<pid>/io `rchar`: what the reads copied, from
 * the OS cache or the disk; `read_bytes`: what came from the disk), and its RSS at the end.
 *
 * BENCH_SPLIT_OS=cold drops the store file from the OS page cache (`dd iflag=nocache`) before
 * each kind's warm-up reads, as when the machine's other work has evicted it; `warm` reads it
 * through once first (the OS then holds all of it); `cold-indexes` drops it, then reads every
 * B-tree but the aspect rows' table once (what reading the indexes at start would leave);
 * default: as found.
 *
 * What it showed (2026-11-27, 1M datasets, load average 3.7-5.8), medians of 2-3 runs:
 * - OS cache warm: `entitiesV2` 400 µs (event loop user 250, sys 40), `/relationships` 270-350;
 *   5.3 preads (21.5 KB) per `entitiesV2` read, 6 per `/relationships`. The store's read itself
 *   (timed inside the server) took ~64 µs of it; in a loop in one process, ~30.
 * - OS cache cold: `entitiesV2` 560-860 µs (event loop sys 160-240), `/relationships` 410-530,
 *   26 and 19 KB from the disk per read.
 * - The indexes read into the OS cache first (`cold-indexes`): `/relationships` 7 KB from the
 *   disk per read, `entitiesV2` 22 KB (the table's leaf and the kernel's read-ahead around it),
 *   CPU within the runs' spread.
 * - `mmap_size` 8 GB: the same CPU (400 / 300 µs), RSS 250 → 690 MB (490 MB of file pages).
 * - A 48 MB page cache (5 pairs): 5.6 preads per `entitiesV2` read instead of 6.3, CPU 450 / 360
 *   µs against 430 / 320 (within the spread), RSS 274-299 MB against 231-261.
 *
 * The server is found listening by its info log line: an environment that raises the log level
 * past `info` leaves the run waiting.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fmt, median } from './lib.js'
import { pick } from './lineage-scale.js'
import { inTurns, startBuild, variantOf } from './reads-start.js'
import { send } from './scale-http.js'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: node --import tsx bench/reads-split.ts <data dir>')
const N = Number(process.env.BENCH_ENTITIES ?? 1_000_000)
const ROUNDS = Number(process.env.BENCH_SPLIT_ROUNDS ?? 5)
const TIMED = Number(process.env.BENCH_SPLIT_TIMED ?? 1000)
const WARM = 1000
const OS = process.env.BENCH_SPLIT_OS ?? ''
const enc = encodeURIComponent
const store = join(dataDir, 'metadata.db')

/** Ticks (1/100 s) of user and system time, faults, and I/O counters of a process or thread. */
function sample(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  const main = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8')
  const m = main.slice(main.lastIndexOf(')') + 2).split(' ')
  const io = Object.fromEntries(
    readFileSync(`/proc/${pid}/io`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => {
        const [k, v] = l.split(': ')
        return [k, Number(v)]
      }),
  ) as Record<string, number>
  return {
    all: Number(f[11]) + Number(f[12]),
    mainUser: Number(m[11]),
    mainSys: Number(m[12]),
    minflt: Number(f[7]),
    majflt: Number(f[9]),
    rchar: io.rchar ?? 0,
    readBytes: io.read_bytes ?? 0,
    syscr: io.syscr ?? 0,
  }
}
type Sample = ReturnType<typeof sample>
type Outcome = Record<string, Record<keyof Sample, number>>

const kinds: Record<string, (url: string, i: number) => string> = {
  entitiesV2: (url, i) => `${url}/entitiesV2/${enc(pick(N, i))}`,
  relationships: (url, i) =>
    `${url}/relationships?direction=${i % 2 ? 'INCOMING' : 'OUTGOING'}&urn=${enc(pick(N, i))}&types=List(DownstreamOf)`,
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Waits (at most 120 s) until the server uses under 3 % of a core over a second. */
async function settle(pid: number): Promise<void> {
  const started = performance.now()
  for (let before = sample(pid).all; performance.now() - started < 120_000; ) {
    await sleep(1000)
    const now = sample(pid).all
    if (now - before < 3) return
    before = now
  }
}

function osCache(): void {
  if (OS === 'cold') execFileSync('dd', [`if=${store}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' })
  if (OS === 'warm') execFileSync('sh', ['-c', `cat '${store}' > /dev/null`])
  if (OS === 'cold-indexes') {
    execFileSync('dd', [`if=${store}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' })
    // Every page of the B-trees but the aspect rows' table read once (the OS then holds them):
    // what a server that read them at start would find.
    execFileSync('sqlite3', [
      '-readonly',
      store,
      `SELECT count(*) FROM urns INDEXED BY urns_by_urn; SELECT sum(length(urn)) FROM urns NOT INDEXED;
       SELECT sum(eid) FROM aspect_rows INDEXED BY sqlite_autoindex_aspect_rows_1;
       SELECT sum(src) FROM edge_rows; SELECT sum(dst) FROM edge_rows INDEXED BY edge_rows_incoming;`,
    ])
  }
}

/** Runs started so far: each reads its own datasets. */
let runs = 0

async function run(variant: string): Promise<Outcome> {
  const { root, flags } = variantOf(variant)
  // `<copy>|<flags>|NAME=value ...`: the server's environment beside the defaults.
  const env = Object.fromEntries(
    (variant.split('|')[2] ?? '')
      .split(' ')
      .filter(Boolean)
      .map((kv) => kv.split('=') as [string, string]),
  )
  const app = await startBuild(root, dataDir as string, { extraFlags: flags, env })
  const pid = app.child.pid as number
  const out: Outcome = {}
  runs++
  try {
    await settle(pid)
    for (const [name, url] of Object.entries(kinds)) {
      // Each run its own datasets (both kinds the same ones, as in the scale benchmark): no run
      // finds them in the OS cache because an earlier run read them.
      const base = runs * 2 * (TIMED + WARM)
      osCache()
      for (let i = 0; i < 9; i++) await send(url(app.url, base + i))
      for (let i = TIMED; i < TIMED + WARM; i++) await send(url(app.url, base + i))
      await settle(pid)
      const before = sample(pid)
      for (let i = 0; i < TIMED; i++) await send(url(app.url, base + i))
      const after = sample(pid)
      const per = {} as Record<keyof Sample, number>
      for (const k of Object.keys(before) as Array<keyof Sample>) {
        const ticks = k === 'all' || k === 'mainUser' || k === 'mainSys'
        per[k] = ((after[k] - before[k]) * (ticks ? 10_000 : 1)) / TIMED
      }
      out[name] = per
    }
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const mb = (name: string) =>
      Math.round(Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024)
    process.stdout.write(`${variant}: ${describe(out)}; RSS ${mb('VmRSS')} MB (file ${mb('RssFile')} MB)\n`)
    return out
  } finally {
    await app.stop()
  }
}

function describe(o: Outcome): string {
  return Object.entries(o)
    .map(
      ([k, v]) =>
        `${k} ${fmt(v.all)} µs (loop user ${fmt(v.mainUser)} sys ${fmt(v.mainSys)}; minflt ${fmt(v.minflt, 1)} majflt ${fmt(v.majflt, 2)}; ` +
        `rchar ${fmt(v.rchar / 1024, 1)} KB, disk ${fmt(v.readBytes / 1024, 1)} KB, reads ${fmt(v.syscr, 1)})`,
    )
    .join('; ')
}

const variants = (process.env.BENCH_SPLIT_VARIANTS ?? process.cwd()).split(';')
const results = await inTurns(variants, ROUNDS, run)
for (const [v, outs] of results) {
  const med = {} as Outcome
  for (const kind of Object.keys(kinds)) {
    const m = {} as Record<keyof Sample, number>
    for (const k of Object.keys(outs[0]?.[kind] ?? {}) as Array<keyof Sample>)
      m[k] = median(outs.map((o) => o[kind]?.[k] ?? 0))
    med[kind] = m
  }
  process.stdout.write(`median ${v}: ${describe(med)}\n`)
}
