/**
 * `node --import tsx bench/reads-scale-ratio.ts <data dir>`: the scale benchmark's two read
 * rows (`entitiesV2` and `/relationships` beside node's bare http server answering a fixed JSON
 * of the median answer's size, interleaved, server CPU per request from /proc) for builds in
 * turns, after the scale benchmark's searches, as it orders them. BENCH_RATIO_VARIANTS
 * (`;`-separated repo copies with a built dist/, each optionally `|<extra node flags>`),
 * BENCH_RATIO_ROUNDS (default 5) rounds of A B A B ...; BENCH_RATIO_WARMUPS untimed reads of other datasets before each series (default: as
 * many as are timed, 1,000, as the scale benchmark does). At the end: medians per variant of
 * our CPU, the bare server's, and their ratio, and the load averages.
 *
 * What it showed (2026-11-26, 1M datasets, one pair, load ~6): with 1,000 warm-ups `entitiesV2`
 * 380 µs beside the bare server's 190 (0.50×), `/relationships` 360 beside 180 (0.50×); with
 * 6,000, 300 beside 120 (0.40×) and 310 beside 110 (0.35×): more warm-ups do not raise the ratio,
 * the bare server's code reaches V8's optimized tier sooner still.
 */
import { fmt, median } from './lib.js'
import { pick } from './lineage-scale.js'
import { inTurns, startBuild, variantOf } from './reads-start.js'
import { fixedJsonServer, medianBody, type Series, send, type Timing, timeInterleaved } from './scale-http.js'
import { scaleKinds } from './scale-kinds.js'
import { searchBody, warm } from './scale-search.js'

const dataDir = process.argv[2]
if (!dataDir) throw new Error('usage: node --import tsx bench/reads-scale-ratio.ts <data dir>')
const N = Number(process.env.BENCH_ENTITIES ?? 1_000_000)
const ROUNDS = Number(process.env.BENCH_RATIO_ROUNDS ?? 5)
const TIMED = 1000
const WARMUPS = Number(process.env.BENCH_RATIO_WARMUPS ?? TIMED)
const enc = encodeURIComponent

const reads: Record<string, (url: string, i: number) => string> = {
  entitiesV2: (url, i) => `${url}/entitiesV2/${enc(pick(N, i))}`,
  relationships: (url, i) =>
    `${url}/relationships?direction=${i % 2 ? 'INCOMING' : 'OUTGOING'}&urn=${enc(pick(N, i))}&types=List(DownstreamOf)`,
}

type Outcome = Record<string, { ours: number; bare: number }>

async function run(variant: string): Promise<Outcome> {
  const { root, flags } = variantOf(variant)
  const app = await startBuild(root, dataDir as string, { extraFlags: flags })
  const pid = app.child.pid as number
  const out: Outcome = {}
  try {
    await warm(app.url)
    for (const kind of scaleKinds)
      for (let i = 0; i < kind.inputs.length + 210; i++)
        await send(
          `${app.url}/entities?action=${kind.action}`,
          searchBody(kind, kind.inputs[i % kind.inputs.length] as string),
        )
    for (const [name, url] of Object.entries(reads)) {
      const bodies: string[] = []
      for (let i = 0; i < 9; i++) bodies.push(await send(url(app.url, i)))
      const server = await fixedJsonServer(medianBody(bodies))
      try {
        const ours: Series = { pid, run: (i) => send(url(app.url, i)) }
        const bare: Series = { pid: server.child.pid as number, run: () => send(`${server.url}/`) }
        const [o, b] = (await timeInterleaved([ours, bare], TIMED, WARMUPS)) as [Timing, Timing]
        out[name] = { ours: o.cpuMs * 1000, bare: b.cpuMs * 1000 }
      } finally {
        await server.stop()
      }
    }
    process.stdout.write(
      `${variant}: ${Object.entries(out)
        .map(([k, v]) => `${k} ${fmt(v.ours)} µs, bare ${fmt(v.bare)} µs (${fmt(v.bare / v.ours, 2)}×)`)
        .join('; ')}\n`,
    )
    return out
  } finally {
    await app.stop()
  }
}

const variants = (process.env.BENCH_RATIO_VARIANTS ?? process.cwd()).split(';')
const results = await inTurns(variants, ROUNDS, run)
for (const [v, outs] of results)
  process.stdout.write(
    `median ${v}: ${Object.keys(reads)
      .map((k) => {
        const ours = median(outs.map((o) => o[k]?.ours ?? 0))
        const bare = median(outs.map((o) => o[k]?.bare ?? 0))
        const ratio = median(outs.map((o) => (o[k]?.bare ?? 0) / (o[k]?.ours ?? 1)))
        return `${k} ${fmt(ours)} µs, bare ${fmt(bare)} µs, ratio ${fmt(ratio, 2)}×`
      })
      .join('; ')}\n`,
  )
