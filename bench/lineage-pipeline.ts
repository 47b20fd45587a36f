/**
 * `npm run bench -- pipeline`: what the HTTP pipeline costs a small JSON POST (every route pays
 * it: ingest, getLineage, GraphQL). The same `POST /relationships?action=getLineage` with a
 * lineage body, answered with the same fixed 1.5 KB JSON, by node's bare http server, by bare
 * fastify with the route's schemas, and through http-kit as the catalog runs it
 * (`lineage-pipeline-server.ts`), each in its own process. Rounds of BENCH_PIPELINE_REQUESTS
 * requests (default 4,000, 4 connections) go to each server in turn, so the rest of the shared
 * machine weighs on all alike; the figures are each server's CPU per request (every thread,
 * from /proc; the median of the rounds), and their ratios to bare node and bare fastify. With
 * BENCH_HTTP_KIT_BEFORE=<a copy of packages/http-kit/src beside a node_modules link> another
 * build's http-kit is timed in the same rounds. BENCH_PIPELINE_PROFILE=<dir> runs each server
 * under `--cpu-prof` into that dir (a file per thread, named with the process id, printed).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { cpuSeconds, fmt, load, median } from './lib.js'
import { bareFastifyApp, kitApp } from './lineage-pipeline-server.js'

const REQUESTS = Number(process.env.BENCH_PIPELINE_REQUESTS ?? 4_000)
const ROUNDS = Number(process.env.BENCH_PIPELINE_ROUNDS ?? 5)
const CONNECTIONS = 4

const BODY = JSON.stringify({
  urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.table_000001,PROD)',
  direction: 'UPSTREAM',
  maxHops: 1,
  start: 0,
  count: 100,
})

interface Server {
  readonly kind: string
  readonly child: ChildProcess
  readonly url: string
}

function start(kind: string): Promise<Server> {
  const profile = process.env.BENCH_PIPELINE_PROFILE
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  const child = spawn(
    process.execPath,
    [...flags, '--import', 'tsx', new URL('./lineage-pipeline-server.ts', import.meta.url).pathname, kind],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  let output = ''
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} server exited (${code}):\n${output}`)))
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const port = /^PORT (\d+)$/m.exec(output)?.[1]
      if (!port) return
      child.stdout?.removeAllListeners('data')
      child.stdout?.resume()
      if (profile) process.stdout.write(`${kind} server: pid ${child.pid}\n`)
      resolve({ kind, child, url: `http://127.0.0.1:${port}` })
    })
  })
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve()
    server.child.removeAllListeners('exit')
    server.child.once('exit', () => resolve())
    server.child.kill('SIGINT')
  })
}

/** Per server: CPU-µs per request of each round, and requests that failed. */
interface Tally {
  readonly perRound: number[]
  failed: number
}

/** The median of some numbers (the rounds a burst of other work on the machine slowed count little). */

/** One round of requests to one server: its CPU and requests answered. */
async function round(server: Server, tally: Tally): Promise<void> {
  const pid = server.child.pid as number
  const cpu = cpuSeconds(pid)
  const r = await load({
    url: server.url,
    path: '/relationships?action=getLineage',
    body: () => BODY,
    connections: CONNECTIONS,
    amount: REQUESTS,
  })
  tally.perRound.push(((cpuSeconds(pid) - cpu) * 1e6) / r.total)
  tally.failed += r.errors + r.non2xx
}

/** Requests per server per round of the in-process figures. */
const INJECTS = 1_000

interface Injectable {
  readonly kind: string
  readonly inject: (options: {
    method: 'POST'
    url: string
    headers: Record<string, string>
    payload: string
  }) => Promise<{ statusCode: number }>
}

/**
 * The pipeline alone, in this process: `inject` (no socket, no http parser) into bare fastify
 * and the http-kit servers, rounds of {@link INJECTS} requests each in turn; CPU per request
 * from `process.cpuUsage`, the median of the rounds.
 */
async function injected(say: (line: string) => void): Promise<void> {
  const fastify = bareFastifyApp()
  const apps: Injectable[] = [{ kind: 'fastify', inject: (o) => fastify.inject(o) }]
  const kit = await kitApp('@catalog/http-kit')
  apps.push({ kind: 'kit', inject: (o) => kit.inject(o) })
  const beforeDir = process.env.BENCH_HTTP_KIT_BEFORE
  if (beforeDir) {
    const before = await kitApp(`${beforeDir}/index.ts`)
    apps.push({ kind: 'kit-before', inject: (o) => before.inject(o) })
  }
  const request = {
    method: 'POST' as const,
    url: '/relationships?action=getLineage',
    headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' },
    payload: BODY,
  }
  const spent = apps.map((): number[] => [])
  for (let r = -1; r < ROUNDS * 2; r++)
    for (const [i, app] of apps.entries()) {
      const before = process.cpuUsage()
      for (let n = 0; n < INJECTS; n++) {
        const res = await app.inject(request)
        if (res.statusCode !== 200) throw new Error(`${app.kind} answered ${res.statusCode}`)
      }
      const used = process.cpuUsage(before)
      // Round -1 warms up.
      if (r >= 0) spent[i]?.push((used.user + used.system) / INJECTS)
    }
  const us = spent.map(median)
  const base = us[0] as number
  say(`the same request by inject (no socket, no http parser), ${fmt(ROUNDS * 2)} rounds of ${fmt(INJECTS)}:`)
  for (const [i, app] of apps.entries())
    say(
      `${app.kind.padEnd(10)} ${fmt(us[i] as number, 1).padStart(5)} CPU-µs per request (${fmt((us[i] as number) / base, 2)}× bare fastify, ${fmt((us[i] as number) - base, 1)} µs more)`,
    )
}

export async function pipelineBench(): Promise<string[]> {
  const lines: string[] = []
  const say = (line: string) => {
    process.stdout.write(`${line}\n`)
    lines.push(line)
  }
  const kinds = ['node', 'fastify', 'kit', ...(process.env.BENCH_HTTP_KIT_BEFORE ? ['kit-before'] : [])]
  const servers: Server[] = []
  try {
    for (const kind of kinds) servers.push(await start(kind))
    const tallies = servers.map((): Tally => ({ perRound: [], failed: 0 }))
    // One untimed round warms every server's compiled code.
    for (const s of servers) await round(s, { perRound: [], failed: 0 })
    for (let r = 0; r < ROUNDS; r++)
      for (const [i, s] of servers.entries()) await round(s, tallies[i] as Tally)
    const us = tallies.map((t) => median(t.perRound))
    const [nodeUs, fastifyUs] = us as [number, number]
    say(
      `small JSON POST (lineage body, fixed 1.5 KB answer), ${fmt(ROUNDS)} rounds of ${fmt(REQUESTS)} requests per server, ${CONNECTIONS} connections:`,
    )
    for (const [i, s] of servers.entries()) {
      const t = tallies[i] as Tally
      if (t.failed > 0) throw new Error(`${s.kind}: ${t.failed} requests failed`)
      const cpu = us[i] as number
      say(
        `${s.kind.padEnd(10)} ${fmt(cpu).padStart(5)} CPU-µs per request (${fmt(cpu / nodeUs, 2)}× bare node, ${fmt(cpu / fastifyUs, 2)}× bare fastify, ${fmt(cpu - fastifyUs)} µs more)`,
      )
    }
  } finally {
    for (const s of servers) await stop(s)
  }
  await injected(say)
  return lines
}
