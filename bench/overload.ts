/**
 * Overload benchmark: 4,096 concurrent writers (one keep-alive connection each, started over
 * the first 2 s) send
 * `ingestProposal` calls as fast as they are answered against `npm start` on loopback (embedded
 * SQLite, durability full), for a bounded time, while a probe asks `/health` every 100 ms. A
 * refused writer waits its Retry-After (plus jitter) before its next call, as DataHub's emitter does.
 * Reports write latency p50/p99 (accepted and refused), 2xx and 429 counts, connection resets,
 * client timeouts, and `/health` latency. Target: a bounded p99, 429s instead of resets and
 * timeouts, `/health` under 100 ms. BENCH_SCALE scales the duration; BENCH_WRITERS the writers.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp } from '../test/helpers/spawn.js'
import { fmt, maxOf, percentile } from './lib.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const DURATION_MS = Math.max(5, Math.round(20 * SCALE)) * 1000
const WRITERS = Math.min(4096, Number(process.env.BENCH_WRITERS ?? 4096))
/** The store's durability (`full` by default: every commit is fsynced); BENCH_DURABILITY=normal compares. */
const DURABILITY = process.env.BENCH_DURABILITY === 'normal' ? 'normal' : 'full'
/** A client gives up on a request after this long (counted as a timeout). */
const CLIENT_TIMEOUT_MS = 30_000
/** A refused writer waits Retry-After (1 s) with up to this much jitter, as DataHub's emitter retries. */
const RETRY_JITTER_MS = 500
/** Writers start spread over this long. */
const RAMP_MS = 2000
/** The ramp of 4,096 connections opening is over by then. */
const STEADY_AFTER_MS = 5000

interface Outcome {
  readonly status?: number
  readonly retryAfter?: string
  readonly error?: 'reset' | 'timeout' | 'other'
  readonly ms: number
  /** When the request was sent, ms since the measured phase began. */
  readonly at?: number
  /** Time to establish a new connection, when the request opened one. */
  readonly connectMs?: number
}

function post(agent: Agent, base: URL, path: string, body: string): Promise<Outcome> {
  const began = performance.now()
  return new Promise((resolve) => {
    let settled = false
    let connectMs: number | undefined
    const done = (o: Omit<Outcome, 'ms'>) => {
      if (settled) return
      settled = true
      resolve({ ...o, ms: performance.now() - began, ...(connectMs === undefined ? {} : { connectMs }) })
    }
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        method: path === '/health' ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' },
        timeout: CLIENT_TIMEOUT_MS,
      },
      (res) => {
        res.resume()
        const retryAfter = res.headers['retry-after']
        res.on('end', () => done({ status: res.statusCode ?? 0, ...(retryAfter ? { retryAfter } : {}) }))
        res.on('error', () => done({ error: 'reset' }))
      },
    )
    req.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connectMs = performance.now() - began))
    })
    req.on('timeout', () => {
      done({ error: 'timeout' })
      req.destroy()
    })
    req.on('error', (err: NodeJS.ErrnoException) => {
      done({ error: err.code === 'ECONNRESET' || err.code === 'EPIPE' ? 'reset' : 'other' })
    })
    if (path === '/health') req.end()
    else req.end(body)
  })
}

const proposal = (i: number) =>
  JSON.stringify({
    proposal: {
      entityType: 'dataset',
      entityUrn: `urn:li:dataset:(urn:li:dataPlatform:hive,overload.t_${i},PROD)`,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: {
        value: JSON.stringify({ description: `table ${i}`, customProperties: { n: String(i) } }),
        contentType: 'application/json',
      },
    },
  })

export async function overloadBench(): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-overload-'))
  const catalog = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'off',
    CATALOG_LOG_LEVEL: 'info',
    CATALOG_DURABILITY: DURABILITY,
    ...(process.env.CATALOG_MAX_INFLIGHT_WRITES
      ? { CATALOG_MAX_INFLIGHT_WRITES: process.env.CATALOG_MAX_INFLIGHT_WRITES }
      : {}),
  })
  const base = new URL(catalog.url)
  const writersAgent = new Agent({ keepAlive: true, maxSockets: WRITERS })
  const healthAgent = new Agent({ keepAlive: true, maxSockets: 1 })
  const outcomes: Outcome[] = []
  const health: Outcome[] = []
  const lines: string[] = []
  try {
    process.stdout.write(
      `overload benchmark: ${WRITERS} concurrent writers for ${DURATION_MS / 1000}s on ${catalog.url}\n`,
    )
    // Warm the server (JIT, lazily loaded modules, SQLite cache) with a modest load first.
    let n = 0
    const warmUntil = performance.now() + 3000
    const warmAgent = new Agent({ keepAlive: true, maxSockets: 32 })
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (performance.now() < warmUntil) {
          await post(warmAgent, base, '/aspects?action=ingestProposal', proposal(n++))
        }
      }),
    )
    warmAgent.destroy()
    const began = performance.now()
    const until = began + DURATION_MS
    const writer = async (w: number) => {
      // Writers start spread over RAMP_MS: 4,096 SYNs in one millisecond overflow the kernel's
      // SYN queue (tcp_max_syn_backlog) and measure TCP retransmits, not the server.
      await new Promise((r) => setTimeout(r, (w / WRITERS) * RAMP_MS))
      while (performance.now() < until) {
        const at = performance.now() - began
        const o = await post(writersAgent, base, '/aspects?action=ingestProposal', proposal(n++))
        outcomes.push({ ...o, at })
        if (o.status === 429 || o.error) {
          const wait = 1000 * Number(o.retryAfter ?? 1) + Math.random() * RETRY_JITTER_MS
          await new Promise((r) => setTimeout(r, wait))
        }
      }
    }
    const probe = async () => {
      while (performance.now() < until) {
        const at = performance.now() - began
        health.push({ ...(await post(healthAgent, base, '/health', '')), at })
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    await Promise.all([probe(), ...Array.from({ length: WRITERS }, (_, w) => writer(w))])
  } finally {
    writersAgent.destroy()
    healthAgent.destroy()
    await catalog.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  const ok = outcomes.filter((o) => o.status !== undefined && o.status < 300)
  const refused = outcomes.filter((o) => o.status === 429)
  const other = outcomes.filter((o) => o.status !== undefined && o.status >= 300 && o.status !== 429)
  const count = (e: Outcome['error']) => outcomes.filter((o) => o.error === e).length
  const answered = outcomes.filter((o) => o.status !== undefined).map((o) => o.ms)
  const healthMs = health.filter((o) => o.status === 200).map((o) => o.ms)
  const say = (line: string) => {
    lines.push(line)
    process.stdout.write(`${line}\n`)
  }
  say(
    `writes: ${fmt(outcomes.length)} sent, ${fmt(ok.length)} accepted (${fmt(ok.length / (DURATION_MS / 1000))}/s), ${fmt(refused.length)} × 429, ${other.length} other statuses`,
  )
  say(
    `errors: ${count('reset')} connection resets, ${count('timeout')} client timeouts (${CLIENT_TIMEOUT_MS / 1000}s), ${count('other')} other`,
  )
  say(
    `latency (all answers): p50 ${fmt(percentile(answered, 50))} ms, p99 ${fmt(percentile(answered, 99))} ms, max ${fmt(maxOf(answered))} ms`,
  )
  say(
    `latency accepted: p50 ${fmt(
      percentile(
        ok.map((o) => o.ms),
        50,
      ),
    )} ms, p99 ${fmt(
      percentile(
        ok.map((o) => o.ms),
        99,
      ),
    )} ms; refused (429): p50 ${fmt(
      percentile(
        refused.map((o) => o.ms),
        50,
      ),
    )} ms, p99 ${fmt(
      percentile(
        refused.map((o) => o.ms),
        99,
      ),
    )} ms`,
  )
  const steady = (o: Outcome) => (o.at ?? 0) >= STEADY_AFTER_MS
  const steadyOk = ok.filter(steady).map((o) => o.ms)
  const steadyHealth = health.filter((o) => steady(o) && o.status === 200).map((o) => o.ms)
  say(
    `steady state (sent after the first ${STEADY_AFTER_MS / 1000} s): accepted p50 ${fmt(percentile(steadyOk, 50))} ms, p99 ${fmt(percentile(steadyOk, 99))} ms; /health p50 ${fmt(percentile(steadyHealth, 50))} ms, p99 ${fmt(percentile(steadyHealth, 99))} ms`,
  )
  const connects = outcomes.flatMap((o) => (o.connectMs === undefined ? [] : [o.connectMs]))
  const firsts = outcomes.filter((o) => o.connectMs !== undefined).map((o) => o.ms)
  const reused = outcomes.filter((o) => o.connectMs === undefined && o.status !== undefined).map((o) => o.ms)
  say(
    `connection setup: ${connects.length} new connections, p50 ${fmt(percentile(connects, 50))} ms, p99 ${fmt(percentile(connects, 99))} ms, max ${fmt(maxOf(connects))} ms`,
  )
  say(
    `first request on a new connection: p50 ${fmt(percentile(firsts, 50))} ms, p99 ${fmt(percentile(firsts, 99))} ms; on a kept-alive one: p50 ${fmt(percentile(reused, 50))} ms, p99 ${fmt(percentile(reused, 99))} ms`,
  )
  say(
    `/health during load: ${healthMs.length}/${health.length} answered, p50 ${fmt(percentile(healthMs, 50))} ms, p99 ${fmt(percentile(healthMs, 99))} ms, max ${fmt(maxOf(healthMs))} ms (target < 100 ms)`,
  )
  return lines
}
