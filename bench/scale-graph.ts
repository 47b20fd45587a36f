/**
 * The read and lineage figures of the scale benchmark, over HTTP on random datasets:
 * - `GET /entitiesV2/<urn>` and `GET /relationships` beside node's bare http server answering
 *   a fixed JSON of the same size (the median answer); the ratio is the baseline's server CPU
 *   per request over ours, the throughput ratio of a CPU-bound server (target ≥ 0.5×);
 * - `POST /relationships?action=getLineage` at 1, 3 and 5 hops beside the raw traversal plus
 *   bare HTTP (see `lineage-scale.ts`).
 */
import { fmt } from './lib.js'
import { lineageRows, pick } from './lineage-scale.js'
import { fixedJsonServer, medianBody, type Series, send, type Timing, timeInterleaved } from './scale-http.js'
import { latency, type Row } from './scale-table.js'

const enc = encodeURIComponent
const READ_FACTOR = 5

/** Times `ours` interleaved with node's bare http server answering a fixed JSON the size of the median of `bodies`. */
async function beside(
  ours: Series,
  bodies: readonly string[],
  samples: number,
): Promise<{ ours: Timing; bare: Timing & { bytes: number } }> {
  const fixed = medianBody(bodies)
  const server = await fixedJsonServer(fixed)
  try {
    const bare: Series = { pid: server.child.pid as number, run: () => send(`${server.url}/`) }
    // As many untimed reads (of other entities) first: the searches before them leave the
    // server re-optimizing its HTTP path for ~1,000-3,000 requests (see timeInterleaved).
    const [o, b] = (await timeInterleaved([ours, bare], samples, samples)) as [Timing, Timing]
    return { ours: o, bare: { ...b, bytes: Buffer.byteLength(fixed) } }
  } finally {
    await server.stop()
  }
}

const fixedName = (t: { bytes: number }) => `node http, fixed ${fmt(t.bytes / 1024, 1)} KB JSON`

/**
 * A read beside the fixed-JSON baseline: ratio = baseline CPU per request / ours. Each server's
 * CPU is read from /proc in 10 ms ticks, so reads are timed {@link READ_FACTOR}× as often.
 */
async function readRow(
  figure: string,
  pid: number,
  samples: number,
  url: (i: number) => string,
): Promise<Row> {
  const bodies: string[] = []
  for (let i = 0; i < 9; i++) bodies.push(await send(url(i)))
  const { ours, bare: base } = await beside({ pid, run: (i) => send(url(i)) }, bodies, samples * READ_FACTOR)
  const ratio = base.cpuMs / ours.cpuMs
  return {
    figure,
    result: latency(ours),
    baseline: `${fixedName(base)}: ${latency(base)}`,
    ratio,
    target: '≥ 0.5× (CPU per request)',
    met: ratio >= 0.5,
  }
}

/** Measures the reads and lineage; returns their table rows and says how big the answers were. */
export async function graphRows(
  url: string,
  pid: number,
  storeFile: string,
  n: number,
  samples: number,
  say: (line: string) => void,
): Promise<Row[]> {
  const rows: Row[] = []
  rows.push(await readRow('entitiesV2 GET', pid, samples, (i) => `${url}/entitiesV2/${enc(pick(n, i))}`))
  rows.push(
    await readRow(
      '/relationships GET',
      pid,
      samples,
      (i) =>
        `${url}/relationships?direction=${i % 2 ? 'INCOMING' : 'OUTGOING'}&urn=${enc(pick(n, i))}&types=List(DownstreamOf)`,
    ),
  )
  rows.push(...(await lineageRows({ catalog: { url, pid }, storeFile, n, samples, say })))
  return rows
}
