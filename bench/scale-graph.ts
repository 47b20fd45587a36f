/**
 * The read and lineage figures of the scale benchmark, over HTTP on random datasets:
 * - `GET /entitiesV2/<urn>` and `GET /relationships` beside node's bare http server answering
 *   a fixed JSON of the same size (the median answer); the ratio is the baseline's server CPU
 *   per request over ours, the throughput ratio of a CPU-bound server (target ≥ 0.5×);
 * - `POST /relationships?action=getLineage` at 1, 3 and 5 hops (half UPSTREAM, half
 *   DOWNSTREAM, 100 per page) beside the raw traversal on the same store file in this process:
 *   one recursive CTE over `edge_rows` (its primary key upstream, `edge_rows_incoming`
 *   downstream) returning every entity within the hops with its least degree, sorted as the
 *   endpoint sorts them (degree, URN), plus node's bare http answering a fixed JSON of the
 *   median answer's size (what serving the answer over HTTP costs at least); the ratio is the
 *   endpoint's p95 over the sum of the two p95s (target ≤ 1×). The ratio over the raw CTE alone
 *   is printed too, and the CPU of the store's own walk on the same file in this process (the
 *   endpoint's CPU less it is what HTTP, validation and the JSON answer cost).
 */
import { Registry } from '@catalog/core'
import type { LineageDirection, LineageQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import { lineageEdgeSpecs } from '../apps/metadata-service/src/services/lineage-service.js'
import { SqliteLineage } from '../packages/store-sqlite/src/sqlite-lineage.js'
import { fmt, percentile } from './lib.js'
import { datasetUrn } from './scale-data.js'
import { fixedJsonServer, medianBody, type Series, send, type Timing, timeInterleaved } from './scale-http.js'
import { latency, type Row } from './scale-table.js'

const enc = encodeURIComponent
const READ_FACTOR = 5

/** The i-th dataset picked for a request: spread over the whole catalog, the same every run. */
const pick = (n: number, i: number) => datasetUrn((i * 7_919 + 104_729) % n)

/** The raw lineage traversal: entities within `hops` of `urn`, least degree first, then URN. */
function rawLineage(db: Database.Database): (urn: string, upstream: boolean, hops: number) => unknown[] {
  const walk = (near: string, far: string) =>
    db.prepare(
      `WITH RECURSIVE walk(id, depth) AS (
         SELECT id, 0 FROM urns WHERE urn = $urn
         UNION
         SELECT e.${far}, w.depth + 1 FROM walk w JOIN edge_rows e ON e.${near} = w.id AND e.type = 'DownstreamOf'
         WHERE w.depth < $hops)
       SELECT u.urn, MIN(w.depth) AS degree FROM walk w JOIN urns u ON u.id = w.id
       WHERE w.depth > 0 GROUP BY w.id ORDER BY degree, u.urn`,
    )
  const up = walk('src', 'dst')
  const down = walk('dst', 'src')
  return (urn, upstream, hops) => (upstream ? up : down).all({ urn, hops }).slice(0, 100)
}

/**
 * Times `ours` interleaved with node's bare http server answering a fixed JSON the size of the
 * median of `bodies` (and with `raw`, a call in this process, when given).
 */
async function beside(
  ours: Series,
  bodies: readonly string[],
  samples: number,
  raw?: (i: number) => unknown,
): Promise<{ ours: Timing; bare: Timing & { bytes: number }; raw?: Timing }> {
  const fixed = medianBody(bodies)
  const server = await fixedJsonServer(fixed)
  try {
    const bare: Series = { pid: server.child.pid as number, run: () => send(`${server.url}/`) }
    const series = raw ? [ours, bare, { pid: process.pid, run: async (i: number) => raw(i) }] : [ours, bare]
    const [o, b, r] = (await timeInterleaved(series, samples)) as [Timing, Timing, Timing | undefined]
    return { ours: o, bare: { ...b, bytes: Buffer.byteLength(fixed) }, ...(r ? { raw: r } : {}) }
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
  const db = new Database(storeFile, { readonly: true })
  try {
    const raw = rawLineage(db)
    const walk = new SqliteLineage(db)
    const edges = lineageEdgeSpecs(new Registry())
    for (const hops of [1, 3, 5]) {
      const direction = (i: number): LineageDirection => (i % 2 ? 'DOWNSTREAM' : 'UPSTREAM')
      const body = (i: number) => ({
        urn: pick(n, i),
        direction: direction(i),
        maxHops: hops,
        start: 0,
        count: 100,
      })
      const endpoint = `${url}/relationships?action=getLineage`
      const answers: string[] = []
      for (let i = 0; i < samples; i += 10) answers.push(await send(endpoint, body(i)))
      const totals = answers.map((a) => (JSON.parse(a) as { value: { total: number } }).value.total)
      // The raw traversal's own CPU (this process's CPU also counts the HTTP client of the other series).
      let rawCpuUs = 0
      let rawCalls = 0
      const measured = await beside({ pid, run: (i) => send(endpoint, body(i)) }, answers, samples, (i) => {
        const before = process.cpuUsage()
        const rows = raw(pick(n, i), direction(i) === 'UPSTREAM', hops)
        const spent = process.cpuUsage(before)
        rawCpuUs += spent.user + spent.system
        rawCalls++
        return rows
      })
      const [http, base, bare] = [measured.ours, measured.raw as Timing, measured.bare]
      // The store's walk alone, on the same entities (the endpoint's limits are the defaults).
      const walkStarted = process.cpuUsage()
      for (let i = 0; i < samples; i++) {
        const q: LineageQuery = {
          ...body(i),
          edges,
          maxNodes: 10_000,
          timeBudgetMs: 2_000,
          includeSoftDeleted: false,
        }
        await walk.lineage(q)
      }
      const walkCpu = process.cpuUsage(walkStarted)
      say(
        `getLineage ${hops} hop(s): results per query median ${fmt(percentile([...totals], 50))}, p95 ${fmt(percentile(totals, 95))}; HTTP p95 over raw CTE p95 alone ${fmt(http.p95 / base.p95, 2)}×; CPU per request: server ${fmt(http.cpuMs * 1000)} µs, of which the store's walk ${fmt((walkCpu.user + walkCpu.system) / samples)} µs (in this process, same file), raw CTE ${fmt(rawCpuUs / rawCalls)} µs, bare http ${fmt(bare.cpuMs * 1000)} µs`,
      )
      // The endpoint answers over HTTP: its baseline is the raw traversal plus bare HTTP of an answer of that size.
      const ratio = http.p95 / (base.p95 + bare.p95)
      rows.push({
        figure: `getLineage ${hops} hop${hops > 1 ? 's' : ''}`,
        result: latency(http),
        baseline: `raw recursive CTE p95 ${fmt(base.p95, 1)} ms + ${fixedName(bare)} p95 ${fmt(bare.p95, 1)} ms`,
        ratio,
        target: '≤ 1× raw + HTTP (p95)',
        met: ratio <= 1,
      })
    }
  } finally {
    db.close()
  }
  return rows
}
