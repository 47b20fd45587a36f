/**
 * Sequential HTTP timing for the scale benchmark: latency percentiles and the server's own CPU
 * per request (every thread of the server process, from /proc: unlike latency, it barely grows
 * with what else the shared machine runs), and node's bare http server answering a fixed body
 * as the baseline of a read.
 */
import { type Running, startApp } from '../test/helpers/spawn.js'
import { cpuSeconds, percentile } from './lib.js'

/** Latency percentiles (ms) and server CPU per request (ms) of one series of requests. */
export interface Timing {
  readonly p50: number
  readonly p95: number
  readonly cpuMs: number
  readonly samples: number
}

/** One request; resolves with the body of a 200 answer, throws on any other status. */
export async function send(url: string, body?: unknown): Promise<string> {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 300)}`)
  return text
}

/** One series of requests to time: the call, and the process whose CPU it costs. */
export interface Series {
  readonly pid: number
  readonly run: (i: number) => Promise<unknown>
}

/**
 * Runs the series side by side, `run(0..n-1)` of each in turn (series A's i-th call, then B's,
 * ...), one call at a time, after `warmups` untimed rounds (`run(n..n+warmups-1)`: inputs that
 * are not timed, so a read timed as cold is the first of its entity), so load from the rest of
 * the machine weighs on all of them alike. Returns each series' latency percentiles and the CPU
 * its process spent per call over the timed rounds (for a series run in this process, that CPU
 * includes the HTTP client's work of the other series: not a figure to report).
 *
 * `turnAbout` runs every other round last series first: for series that read the same data
 * (an endpoint and a raw query on its file), the first to need a page the OS has not cached
 * waits for the disk, and the next finds it cached; in turns, each pays that as often.
 *
 * A server that answered other kinds of request just before (searches before reads) re-optimizes
 * the code both share (node's HTTP parser and streams, fastify's routing and reply) for the next
 * ~1,000-3,000 requests: ~0.1-0.2 s of CPU once, on the main thread and V8's compiler threads,
 * then the same CPU per request as before. Enough warm-ups keep that one-time cost out of a
 * figure that is a steady-state cost per request.
 */
export async function timeInterleaved(
  series: readonly Series[],
  n: number,
  warmups = 10,
  { turnAbout = false }: { readonly turnAbout?: boolean } = {},
): Promise<Timing[]> {
  const pids = [...new Set(series.map((s) => s.pid))]
  await settle(pids.filter((pid) => pid !== process.pid))
  for (let i = 0; i < warmups; i++) for (const s of series) await s.run(n + i)
  const ms = series.map((): number[] => [])
  const before = new Map(pids.map((pid) => [pid, cpuSeconds(pid)]))
  const forward = [...series.entries()]
  const backward = [...forward].reverse()
  for (let i = 0; i < n; i++)
    // With turnAbout, every other round runs the series last to first: series that read the
    // same file take turns at reading its pages first, from disk, where the OS cache lacks them.
    for (const [k, s] of turnAbout && i % 2 === 1 ? backward : forward) {
      const start = performance.now()
      await s.run(i)
      ms[k]?.push(performance.now() - start)
    }
  return series.map((s, k) => ({
    p50: percentile([...(ms[k] as number[])], 50),
    p95: percentile(ms[k] as number[], 95),
    cpuMs: ((cpuSeconds(s.pid) - (before.get(s.pid) as number)) * 1000) / n,
    samples: n,
  }))
}

/** CPU share (of one core) under which a server counts as idle. */
const IDLE_SHARE = 0.03

/**
 * Waits (at most 10 s) until the servers use under {@link IDLE_SHARE} of a core over 300 ms, so
 * that work left over from an earlier figure (a search worker finishing what the searches
 * started) is not counted in the next one's CPU per request.
 */
async function settle(pids: readonly number[]): Promise<void> {
  const total = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
  const started = performance.now()
  for (let before = total(); performance.now() - started < 10_000; ) {
    await new Promise((resolve) => setTimeout(resolve, 300))
    const now = total()
    if (now - before < 0.3 * IDLE_SHARE) return
    before = now
  }
}

/** {@link timeInterleaved} of one series. */
export async function timeSequential(
  pid: number,
  n: number,
  run: (i: number) => Promise<unknown>,
  warmups = 10,
): Promise<Timing> {
  return (await timeInterleaved([{ pid, run }], n, warmups))[0] as Timing
}

/** Node's http server answering `body` to every request (bench/fixtures/node-http-server.ts). */
export function fixedJsonServer(body: string): Promise<Running> {
  return startApp('bench/fixtures/node-http-server.ts', { FIXED_JSON: body })
}

/** The median-sized of some answers: the fixed body a baseline server answers with. */
export function medianBody(bodies: readonly string[]): string {
  const sorted = [...bodies].sort((a, b) => a.length - b.length)
  return sorted[Math.floor(sorted.length / 2)] ?? '{}'
}
