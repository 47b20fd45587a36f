/**
 * Search at scale. BENCH_ENTITIES synthetic datasets (default 200,000 × BENCH_SCALE; the same
 * generator as the search benchmark) are written straight through the store API and indexed by
 * the search service's own sync; `npm start` is then run on the data dir and measured over HTTP
 * (sequential requests) for broad 1, 2 and 3-word queries with the default facets, exact
 * `field:value` and autocomplete. Beside each: the same request on the index in this process
 * (no HTTP) and the bare FTS5 baseline of ranking every match (`ORDER BY bm25 LIMIT 10`, what an
 * index pays when it scores every hit). BENCH_SCALE_DIR keeps the data dir there and reuses it
 * on the next run (the load is skipped when it already holds the index).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Registry } from '@catalog/core'
import { RequestBuilder, type SearchIndex, SearchSchema } from '@catalog/search'
import { createSearchServices, storeChangeSource } from '@catalog/search-service'
import { SqliteSearchIndex } from '@catalog/search-sqlite'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import Database from 'better-sqlite3'
import { startApp } from '../test/helpers/spawn.js'
import { cpuSeconds, fmt, rssMb } from './lib.js'
import { post, timeMany, writeDatasets } from './search.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const N = Number(process.env.BENCH_ENTITIES ?? Math.max(1000, Math.round(200_000 * SCALE)))
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 60)

interface Kind {
  readonly name: string
  readonly targetMs: number
  readonly action: 'search' | 'autocomplete'
  readonly inputs: readonly string[]
}

const kinds: Kind[] = [
  {
    name: '1 word',
    targetMs: 50,
    action: 'search',
    inputs: ['orders', 'customers', 'daily', 'payments', 'events', 'finance', 'snapshot', 'sales'],
  },
  {
    name: '2 words',
    targetMs: 50,
    action: 'search',
    inputs: ['daily customers', 'refunds finance', 'payment events', 'inventory snapshot', 'sales orders'],
  },
  {
    name: '3 words',
    targetMs: 50,
    action: 'search',
    inputs: [
      'marketing campaigns hourly',
      'sales orders daily',
      'raw customers growth',
      'finance team payments',
    ],
  },
  {
    name: 'exact field:value',
    targetMs: 20,
    action: 'search',
    inputs: ['tags:PII', 'platform:kafka', 'owners:user42', 'origin:DEV', 'tags:Gold', 'id:daily_orders_7'],
  },
  {
    name: 'autocomplete',
    targetMs: 20,
    action: 'autocomplete',
    inputs: ['ord', 'daily_cu', 'fin', 'raw_pay', 'snap', 'hourly_se', 'cust', 'agg_inv'],
  },
]

const body = (kind: Kind, input: string) =>
  kind.action === 'search'
    ? { input, entity: 'dataset', start: 0, count: 10 }
    : { query: input, entity: 'dataset', limit: 10 }

function rawQuery(index: SearchIndex, requests: RequestBuilder, kind: Kind, input: string) {
  if (kind.action === 'autocomplete')
    return index.autocomplete(requests.autocomplete({ query: input, entityType: 'dataset', limit: 10 }))
  return index.search(requests.search({ input, entityTypes: ['dataset'], start: 0, count: 10 }))
}

/** Ranks every FTS5 match of the words (bm25, default columns unweighted) and keeps 10. */
function ftsBaseline(db: Database.Database, kind: Kind): ((input: string) => unknown) | undefined {
  if (kind.name === 'exact field:value') return undefined
  const all = db.prepare('SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY bm25(fts) LIMIT 10').pluck()
  return (input) => {
    const words = input.split(/[^a-z0-9]+/i).filter(Boolean)
    return all.all(words.map((w) => `"${w}" *`).join(' AND '))
  }
}

const line = (lines: string[], text: string) => {
  process.stdout.write(`${text}\n`)
  lines.push(text)
}

const sizeOf = (file: string) =>
  ['', '-wal', '-shm'].reduce((n, s) => n + (existsSync(file + s) ? statSync(file + s).size : 0), 0)

async function load(dir: string, schema: SearchSchema, registry: Registry, lines: string[]): Promise<void> {
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
  const index = new SqliteSearchIndex({ file: join(dir, 'search.db'), schema })
  try {
    if ((await index.stats()).documents >= N) {
      line(lines, `reusing the index in ${dir}`)
      return
    }
    let started = Date.now()
    await writeDatasets(store, registry, N)
    line(lines, `load: ${fmt(N)} datasets through store.write in ${fmt((Date.now() - started) / 1000, 1)} s`)
    started = Date.now()
    await createSearchServices(schema, index, storeChangeSource(store)).sync.catchUp()
    const seconds = (Date.now() - started) / 1000
    line(lines, `index build: ${fmt(seconds, 1)} s = ${fmt(N / seconds)} datasets/s`)
  } finally {
    await index.close()
    await store.close()
  }
}

export async function scaleBench(): Promise<string[]> {
  const lines: string[] = []
  const keep = process.env.BENCH_SCALE_DIR
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'bench-scale-'))
  if (keep) mkdirSync(keep, { recursive: true })
  const registry = new Registry()
  const schema = new SearchSchema(registry)
  try {
    line(lines, `scale benchmark: ${fmt(N)} synthetic datasets, ${SAMPLES} sequential requests per kind`)
    await load(dir, schema, registry, lines)
    const searchFile = join(dir, 'search.db')
    line(
      lines,
      `disk: search index ${fmt(sizeOf(searchFile) / 1e6, 1)} MB, metadata store ${fmt(sizeOf(join(dir, 'metadata.db')) / 1e6, 1)} MB`,
    )
    const catalog = await startApp(
      'apps/gateway/src/all-in-one.ts',
      { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off', CATALOG_LOG_LEVEL: 'info' },
      600_000,
    )
    const raw = new SqliteSearchIndex({ file: searchFile, schema })
    const db = new Database(searchFile, { readonly: true })
    const requests = new RequestBuilder(schema)
    try {
      // The first queries load the index's caches (vocabulary, facet values) and may run over
      // the query budget (503): retried, and not timed.
      for (let attempt = 0; ; attempt++) {
        const res = await fetch(`${catalog.url}/entities?action=search`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body(kinds[0] as Kind, 'orders')),
        })
        await res.text()
        if (res.status === 200 || attempt >= 10) break
      }
      for (const kind of kinds) {
        const url = `${catalog.url}/entities?action=${kind.action}`
        const input = (i: number) => kind.inputs[i % kind.inputs.length] as string
        const first = JSON.parse(await post(url, body(kind, input(0)))) as { value: Record<string, unknown> }
        const total = first.value.numEntities ?? (first.value.suggestions as unknown[] | undefined)?.length
        const cpuBefore = cpuSeconds(catalog.child.pid as number)
        const http = await timeMany(SAMPLES, (i) => post(url, body(kind, input(i))))
        // The server's own CPU per request (every thread; timeMany sends 20 warm-ups first):
        // unlike latency, it does not grow with what else the machine runs.
        const cpuMs =
          ((cpuSeconds(catalog.child.pid as number) - cpuBefore) * 1000) / (SAMPLES + Math.min(20, SAMPLES))
        const rawT = await timeMany(SAMPLES, (i) => rawQuery(raw, requests, kind, input(i)))
        const fts = ftsBaseline(db, kind)
        const ftsT = fts ? await timeMany(Math.min(SAMPLES, 20), async (i) => fts(input(i))) : undefined
        const met = http.p95 <= kind.targetMs ? 'met' : 'NOT met'
        line(
          lines,
          `${kind.name} ("${input(0)}": ${kind.action === 'search' ? `numEntities ${total}` : `${total} suggestions`}): HTTP p50 ${fmt(http.p50, 1)}, p95 ${fmt(http.p95, 1)} ms (target p95 ≤ ${kind.targetMs}: ${met}), server CPU ${fmt(cpuMs, 1)} ms per request | in-process index p50 ${fmt(rawT.p50, 1)}, p95 ${fmt(rawT.p95, 1)}${ftsT ? ` | FTS5 rank-every-match baseline p50 ${fmt(ftsT.p50, 1)}, p95 ${fmt(ftsT.p95, 1)}, ours ${fmt(http.p95 / ftsT.p95, 2)}× of it` : ''}`,
        )
      }
      const rss = rssMb(catalog.child.pid as number)
      line(lines, `catalog (npm start) resident memory after the queries: ${fmt(rss)} MB`)
    } finally {
      db.close()
      await raw.close()
      await catalog.stop()
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true })
  }
  return lines
}
