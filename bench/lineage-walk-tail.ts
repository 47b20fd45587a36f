/**
 * `node --import tsx bench/lineage-walk-tail.ts <store file>`: the store's lineage walk beside the
 * raw recursive query of the scale benchmark (`lineage-raw.ts`), in one process on the same file,
 * per request: the scale benchmark's datasets at 1, 3 and 5 hops (BENCH_ENTITIES, default
 * 1,000,000), each request of the walk and of the raw query in turn (A B A B), timed by
 * `process.cpuUsage()` and wall clock. Prints p50 / p95 / mean of each, and the requests where the
 * walk's time exceeds the raw query's the most, with their result counts: where the walk's tail is.
 * BENCH_CACHE_KB sets both connections' page cache (default 4,000 KB, the store's). BENCH_ORDER:
 * `walk` or `raw` reads first on every request; by default each on every other pair of requests.
 */
import { Registry } from '@catalog/core'
import type { LineageQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import { lineageEdgeSpecs } from '../apps/metadata-service/src/services/lineage-service.js'
import { SqliteLineage } from '../packages/store-sqlite/src/sqlite-lineage.js'
import { fmt, percentile } from './lib.js'
import { rawLineage } from './lineage-raw.js'
import { pick, walkQuery } from './lineage-scale.js'

const file = process.argv[2]
if (!file) throw new Error('usage: node --import tsx bench/lineage-walk-tail.ts <metadata.db>')
const N = Number(process.env.BENCH_ENTITIES ?? 1_000_000)
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200)
const CACHE_KB = Number(process.env.BENCH_CACHE_KB ?? 4_000)
/** `walk` or `raw`: that one first on every request; else each first on every other pair. */
const ORDER = process.env.BENCH_ORDER ?? 'alternate'

const open = () => {
  const db = new Database(file, { readonly: true })
  db.pragma(`cache_size = -${CACHE_KB}`)
  return db
}
const walkDb = open()
const rawDb = open()
const edges = lineageEdgeSpecs(new Registry())
const walk = new SqliteLineage(walkDb)
const raw = rawLineage(rawDb, edges)

const us = (f: () => unknown) => async (): Promise<[number, number, unknown]> => {
  const t = performance.now()
  const c = process.cpuUsage()
  const out = await f()
  const spent = process.cpuUsage(c)
  return [spent.user + spent.system, (performance.now() - t) * 1000, out]
}

const HOPS = (process.env.BENCH_HOPS ?? '1,3,5').split(',').map(Number)
for (const hops of HOPS) {
  const rows: Array<{
    i: number
    walkFirst: boolean
    walkCpu: number
    rawCpu: number
    walkMs: number
    rawMs: number
    total: number
  }> = []
  // Warm-ups on other datasets, then the timed ones (the scale benchmark's order).
  for (let i = 200; i < 400; i++) {
    const upstream = i % 2 === 0
    await walk.lineage(query(i, hops))
    raw(pick(N, i), upstream, hops, 100)
  }
  for (let i = 0; i < SAMPLES; i++) {
    const upstream = i % 2 === 0
    // Whoever reads first may read pages from disk that the other then finds in the OS cache:
    // by default each goes first on every other request.
    const walkFirst = ORDER === 'alternate' ? i % 4 < 2 : ORDER === 'walk'
    let w: [number, number, unknown]
    let r: [number, number, unknown]
    if (walkFirst) {
      w = await us(() => walk.lineage(query(i, hops)))()
      r = await us(() => raw(pick(N, i), upstream, hops, 100))()
    } else {
      r = await us(() => raw(pick(N, i), upstream, hops, 100))()
      w = await us(() => walk.lineage(query(i, hops)))()
    }
    rows.push({
      i,
      walkFirst,
      walkCpu: w[0],
      rawCpu: r[0],
      walkMs: w[1],
      rawMs: r[1],
      total: (w[2] as { total: number }).total,
    })
  }
  const stat = (xs: number[]) =>
    `p50 ${fmt(percentile([...xs], 50))} p95 ${fmt(percentile([...xs], 95))} mean ${fmt(xs.reduce((a, b) => a + b, 0) / xs.length)}`
  for (const first of [true, false]) {
    const some = rows.filter((r) => r.walkFirst === first)
    if (some.length === 0) continue
    process.stdout.write(
      `  ${first ? 'walk first' : 'raw first'} (${some.length}): walk wall µs ${stat(some.map((r) => r.walkMs))}; raw wall µs ${stat(some.map((r) => r.rawMs))}\n`,
    )
  }
  process.stdout.write(
    `${hops} hops: walk CPU µs ${stat(rows.map((r) => r.walkCpu))}; raw CPU µs ${stat(rows.map((r) => r.rawCpu))}; walk wall ${stat(rows.map((r) => r.walkMs))}; raw wall ${stat(rows.map((r) => r.rawMs))}\n`,
  )
  const worst = [...rows].sort((a, b) => b.walkCpu - b.rawCpu - (a.walkCpu - a.rawCpu)).slice(0, 5)
  for (const r of worst)
    process.stdout.write(
      `  i=${r.i} results ${r.total}: walk ${fmt(r.walkCpu)} µs, raw ${fmt(r.rawCpu)} µs\n`,
    )
}

function query(i: number, hops: number): LineageQuery {
  return walkQuery(N, i, hops, edges)
}
