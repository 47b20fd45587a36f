/**
 * Lineage benchmark. Builds a synthetic layered lineage graph (1,000,000 datasets and about
 * 3,010,000 `DownstreamOf` edges at BENCH_SCALE=1, hubs of 1,500 downstreams, cycles; see
 * `lineage-graph.ts`) directly into a store file, starts `npm start`'s entry point on it, and
 * measures sequential request latency (p50/p95) of `GET /relationships` and of
 * `POST /relationships?action=getLineage` at 1, 3 and 5 hops. Beside each figure, measured
 * in the same run on the same queries: the raw store call (`SqliteMetadataStore.relationships`
 * / `.lineage` in this process, no HTTP) and the HTTP baseline (the trivial fastify server
 * answering a fixed JSON of the same size). Target: endpoint p95 <= 1.5 x (raw p95 + baseline
 * p95), and a hub's 5-hop downstream answered, partial if need be, within the time budget.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import type { LineageDirection, LineageQuery } from '@catalog/store'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import {
  DEFAULT_LINEAGE_LIMITS,
  lineageEdgeSpecs,
} from '../apps/metadata-service/src/services/lineage-service.js'
import { type Running, startApp } from '../test/helpers/spawn.js'
import { fmt, maxOf, percentile } from './lib.js'
import { generateLineageGraph, type LineageGraph, prng } from './lineage-graph.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const SAMPLES = 200
const HUB_SAMPLES = 50
const TARGET = 1.5
const LIMITS = DEFAULT_LINEAGE_LIMITS

interface Query {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly body?: string
  readonly raw: () => Promise<unknown>
}

interface Measured {
  readonly http: number[]
  readonly raw: number[]
  readonly baseline: number[]
  readonly baselineBytes: number
  /** Response bodies, to report on the answers. */
  readonly bodies: string[]
}

const enc = encodeURIComponent
const ms = (from: number) => performance.now() - from

export async function lineageBench(): Promise<string[]> {
  const lines: string[] = []
  const say = (line: string) => {
    process.stdout.write(`${line}\n`)
    lines.push(line)
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-lineage-'))
  let catalog: Running | undefined
  let store: SqliteMetadataStore | undefined
  try {
    const graph = await generateLineageGraph(join(dir, 'metadata.db'), SCALE)
    const sizeOk = graph.entities >= 1_000_000 && graph.edges >= 3_000_000
    say(
      `graph: ${fmt(graph.entities)} entities, ${fmt(graph.edges)} lineage edges, ${graph.hubIndexes.length} hubs/layer, ${fmt(graph.softDeleted)} soft-deleted; rows written in ${fmt(graph.writeSeconds, 1)} s, indexes built in ${fmt(graph.indexSeconds, 1)} s (direct SQLite load, not the HTTP ingest path)${SCALE >= 1 ? ` (size target 1,000,000 / 3,000,000: ${sizeOk ? 'met' : 'NOT met'})` : ` (BENCH_SCALE=${SCALE})`}`,
    )
    store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
    catalog = await startApp('apps/gateway/src/all-in-one.ts', {
      PORT: '0',
      CATALOG_DATA_DIR: dir,
      CATALOG_AUTH: 'off',
      CATALOG_LOG_LEVEL: 'info',
      CATALOG_LINEAGE_MAX_HOPS: String(LIMITS.maxHops),
      CATALOG_LINEAGE_MAX_NODES: String(LIMITS.maxNodes),
      CATALOG_LINEAGE_TIME_BUDGET_MS: String(LIMITS.timeBudgetMs),
    })
    say(
      `${SAMPLES} sequential requests per case (${HUB_SAMPLES} for hubs); lineage limits: ${LIMITS.maxNodes} nodes, ${LIMITS.timeBudgetMs} ms`,
    )
    const cases = buildCases(graph, store)
    for (const c of cases) {
      const m = await measure(catalog.url, c.queries)
      const p = (xs: number[], q: number) => percentile([...xs], q)
      const ratio = p(m.http, 95) / (p(m.raw, 95) + p(m.baseline, 95))
      say(
        `${c.name}: p50 ${fmt(p(m.http, 50), 2)} ms, p95 ${fmt(p(m.http, 95), 2)} ms | raw store p50 ${fmt(p(m.raw, 50), 2)} ms, p95 ${fmt(p(m.raw, 95), 2)} ms | HTTP baseline (${fmt(m.baselineBytes / 1024, 1)} KB JSON) p50 ${fmt(p(m.baseline, 50), 2)} ms, p95 ${fmt(p(m.baseline, 95), 2)} ms | p95 ratio ${fmt(ratio, 2)}× of raw+baseline (target ≤ ${TARGET}×: ${ratio <= TARGET ? 'met' : 'NOT met'})`,
      )
      if (c.lineage) say(`  ${describeAnswers(m, c.hubBudget === true)}`)
    }
  } finally {
    await catalog?.stop()
    await store?.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return lines
}

interface Case {
  readonly name: string
  readonly queries: Query[]
  readonly lineage?: boolean
  readonly hubBudget?: boolean
}

function buildCases(graph: LineageGraph, store: SqliteMetadataStore): Case[] {
  const random = prng(7)
  const pick = (fromLayer: number, toLayer: number) =>
    graph.urn(
      fromLayer + Math.floor(random() * (toLayer - fromLayer + 1)),
      Math.floor(random() * graph.perLayer),
    )
  const hub = (i: number) =>
    graph.urn(i % (graph.layers - 1), graph.hubIndexes[i % graph.hubIndexes.length] as number)
  const edges = lineageEdgeSpecs(new Registry())
  const relationships = (urn: string, direction: 'INCOMING' | 'OUTGOING'): Query => ({
    method: 'GET',
    path: `/relationships?direction=${direction}&urn=${enc(urn)}&types=DownstreamOf`,
    raw: () => store.relationships({ urn, direction, types: ['DownstreamOf'], start: 0, count: 100 }),
  })
  const lineage = (urn: string, direction: LineageDirection, maxHops: number): Query => {
    const q: LineageQuery = {
      urn,
      direction,
      maxHops,
      start: 0,
      count: 100,
      maxNodes: LIMITS.maxNodes,
      timeBudgetMs: LIMITS.timeBudgetMs,
      includeSoftDeleted: false,
      edges,
    }
    return {
      method: 'POST',
      path: '/relationships?action=getLineage',
      body: JSON.stringify({ urn, direction, maxHops }),
      raw: () => store.lineage(q),
    }
  }
  const times = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i))
  const hops = (n: number): Case => ({
    name: `getLineage ${n} hop${n > 1 ? 's' : ''} (random datasets, up and down)`,
    lineage: true,
    queries: times(SAMPLES, (i) =>
      i % 2 === 0 ? lineage(pick(5, 9), 'UPSTREAM', n) : lineage(pick(0, 4), 'DOWNSTREAM', n),
    ),
  })
  return [
    {
      name: 'relationships DownstreamOf (random datasets, INCOMING and OUTGOING)',
      queries: times(SAMPLES, (i) => relationships(pick(1, 8), i % 2 === 0 ? 'INCOMING' : 'OUTGOING')),
    },
    {
      name: 'relationships INCOMING DownstreamOf on hubs (first page of 100)',
      queries: times(HUB_SAMPLES, (i) => relationships(hub(i), 'INCOMING')),
    },
    hops(1),
    hops(3),
    hops(5),
    {
      name: 'getLineage 5 hops DOWNSTREAM from hubs',
      lineage: true,
      hubBudget: true,
      queries: times(HUB_SAMPLES, (i) => lineage(hub(i), 'DOWNSTREAM', 5)),
    },
  ]
}

/** One timed HTTP request; throws on a non-2xx answer. */
async function timedFetch(
  url: string,
  q: Pick<Query, 'method' | 'body'>,
): Promise<{ ms: number; body: string }> {
  const start = performance.now()
  const res = await fetch(url, {
    method: q.method,
    headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' },
    ...(q.body ? { body: q.body } : {}),
  })
  const body = await res.text()
  const took = ms(start)
  if (!res.ok) throw new Error(`${q.method} ${url} answered ${res.status}: ${body.slice(0, 300)}`)
  return { ms: took, body }
}

/**
 * Runs every query in process (raw store call) and over HTTP, and the baseline request to the
 * trivial server answering a fixed JSON of the case's typical size, interleaved and
 * sequentially, so that load on the machine weighs on all three alike. Five warm-up queries
 * first; they also size the baseline's JSON (the median of their bodies).
 */
async function measure(url: string, queries: Query[]): Promise<Measured> {
  const warmup = queries.slice(0, 5)
  const sizes: string[] = []
  for (const q of warmup) {
    await q.raw()
    sizes.push((await timedFetch(url + q.path, q)).body)
  }
  sizes.sort((a, b) => a.length - b.length)
  const fixed = sizes[Math.floor(sizes.length / 2)] as string
  const trivial = await startApp('bench/fixtures/trivial-server.ts', { FIXED_JSON: fixed })
  const out: Measured = {
    http: [],
    raw: [],
    baseline: [],
    baselineBytes: Buffer.byteLength(fixed),
    bodies: [],
  }
  try {
    for (const q of warmup) await timedFetch(`${trivial.url}/fixed`, q)
    for (const q of queries) {
      const start = performance.now()
      await q.raw()
      out.raw.push(ms(start))
      const http = await timedFetch(url + q.path, q)
      out.http.push(http.ms)
      out.bodies.push(http.body)
      out.baseline.push((await timedFetch(`${trivial.url}/fixed`, q)).ms)
    }
  } finally {
    await trivial.stop()
  }
  return out
}

/** Totals and partial answers of lineage responses; for hubs, the time-budget verdict. */
function describeAnswers(measured: Measured, hubBudget: boolean): string {
  const values = measured.bodies.map(
    (b) => (JSON.parse(b) as { value: { total: number; isPartial: boolean; partialReason?: string } }).value,
  )
  const totals = values.map((v) => v.total)
  const reasons = new Map<string, number>()
  for (const v of values) {
    const key = v.partialReason ?? 'complete'
    reasons.set(key, (reasons.get(key) ?? 0) + 1)
  }
  const summary = `results per query: median ${fmt(percentile([...totals], 50))}, max ${fmt(maxOf(totals))}; answers: ${[...reasons].map(([k, n]) => `${k} ${n}`).join(', ')}`
  if (!hubBudget) return summary
  const slowest = maxOf(measured.http)
  const verdict = slowest <= LIMITS.timeBudgetMs ? 'met' : 'NOT met'
  return `${summary}; slowest hub 5-hop downstream answer ${fmt(slowest, 1)} ms over HTTP (target: within the ${fmt(LIMITS.timeBudgetMs)} ms time budget: ${verdict})`
}
