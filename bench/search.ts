/**
 * Search benchmark. 100,000 synthetic datasets (realistic names, descriptions, schema fields,
 * tags, owners; BENCH_SCALE shrinks the count) are written straight through the metadata
 * store API (`store.write`, one batch per 500 datasets: the change log a real ingest makes,
 * without HTTP). The index is then built from that change log by the search service's own
 * sync (derive documents, apply with the cursor), timed on its own. `npm start` is then run on
 * the data dir (it finds the index at the head of the log) and measured over HTTP with
 * sequential requests, each query kind beside two baselines from the same run: the same query
 * on the index in this process (no HTTP), and fastify answering a fixed JSON of the same size.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type AuditStamp, Registry } from '@catalog/core'
import { RequestBuilder, type SearchIndex, SearchSchema } from '@catalog/search'
import { createSearchServices, storeChangeSource } from '@catalog/search-service'
import { SqliteSearchIndex } from '@catalog/search-sqlite'
import type { MetadataStore, Mutation } from '@catalog/store'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import { startApp } from '../test/helpers/spawn.js'
import { fmt, percentile, rssMb } from './lib.js'
import { COLUMNS as BASE_COLUMNS, DOMAINS, KINDS, PLATFORMS, THINGS } from './vocabulary.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const TARGET_DATASETS = 100_000
const N = Math.max(500, Math.round(TARGET_DATASETS * SCALE))
const SAMPLES = Math.max(40, Math.round(300 * Math.min(1, SCALE * 4)))
const STAMP: AuditStamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

const COLUMNS = BASE_COLUMNS.concat([
  'event_type',
  'event_time',
  'user_id',
  'account_id',
  'balance',
  'region',
  'segment',
  'score',
])
const TAGS = ['PII', 'Legacy', 'Gold', 'Silver', 'Bronze', 'GDPR', 'Certified', 'NeedsDocumentation']

/** A small deterministic PRNG, so every run indexes the same catalog. */
function rng(seed: number) {
  let s = seed
  return (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff
    return s % n
  }
}

/** The aspects of synthetic dataset `i`. */
function dataset(i: number): { urn: string; aspects: Record<string, Record<string, unknown>> } {
  const r = rng(i + 1)
  const pick = <T>(a: readonly T[]) => a[r(a.length)] as T
  const platform = PLATFORMS[i % PLATFORMS.length] as string
  const [domain, thing, kind] = [pick(DOMAINS), pick(THINGS), pick(KINDS)]
  const table = `${kind}_${thing}_${i}`
  const name = `${domain}_db.${pick(DOMAINS)}_${pick(KINDS)}.${table}`
  const origin = r(10) < 8 ? 'PROD' : r(2) ? 'DEV' : 'STG'
  const fields = Array.from({ length: 5 + r(20) }, (_, k) => {
    const column = `${pick(COLUMNS)}${k >= COLUMNS.length ? k : ''}`
    return {
      fieldPath: column,
      nativeDataType: 'varchar',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      ...(r(2) ? { description: `The ${column.replace(/_/g, ' ')} of the ${thing.slice(0, -1)}` } : {}),
    }
  })
  return {
    urn: `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${origin})`,
    aspects: {
      datasetProperties: {
        name: table,
        description: `${kind} ${thing} of the ${domain} team, refreshed ${pick(KINDS)}; used to track ${pick(THINGS)}.`,
        customProperties: { team: domain },
      },
      schemaMetadata: {
        schemaName: name,
        platform: `urn:li:dataPlatform:${platform}`,
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields,
      },
      globalTags: {
        tags: [...new Set(Array.from({ length: r(3) }, () => pick(TAGS)))].map((t) => ({
          tag: `urn:li:tag:${t}`,
        })),
      },
      ownership: {
        owners: [...new Set(Array.from({ length: 1 + r(2) }, () => `urn:li:corpuser:user${r(500)}`))].map(
          (owner) => ({
            owner,
            type: 'DATAOWNER',
          }),
        ),
      },
      status: { removed: false },
    },
  }
}

/** Writes the datasets through the store API, 500 per batch, with DataHub's default aspects. */
export async function writeDatasets(store: MetadataStore, registry: Registry, n: number): Promise<void> {
  const entity = registry.entity('dataset')
  const edges = (aspect: string, value: unknown) =>
    registry.edges(entity, aspect, value).map((e) => ({ type: e.type, destination: e.destination }))
  for (let from = 0; from < n; from += 500) {
    const mutations: Mutation[] = []
    const defaults = []
    for (let i = from; i < Math.min(n, from + 500); i++) {
      const d = dataset(i)
      const ref = registry.resolveUrn(d.urn)
      defaults.push({
        urn: d.urn,
        entityType: 'dataset',
        keyAspect: entity.keyAspect,
        aspects: registry.defaultAspects(ref).map((a) => ({ ...a, edges: edges(a.aspect, a.value) })),
      })
      for (const [aspect, raw] of Object.entries(d.aspects)) {
        const value = registry.validateAspect(registry.aspect(entity, aspect), raw)
        mutations.push({
          kind: 'upsert',
          urn: d.urn,
          entityType: 'dataset',
          aspect,
          value,
          created: STAMP,
          edges: edges(aspect, value),
        })
      }
    }
    await store.write({ mutations, defaults, created: STAMP })
  }
}

interface Kind {
  readonly name: string
  readonly action: 'search' | 'autocomplete'
  readonly bodies: ReadonlyArray<Record<string, unknown>>
}

const kinds: Kind[] = [
  {
    name: 'search, text',
    action: 'search',
    bodies: [
      'orders',
      'daily customers',
      'refunds finance',
      'payment events',
      'custmers',
      'inventory snapshot',
      'marketing campaigns hourly',
      'subscriptions',
    ].map((input) => ({ input, entity: 'dataset', start: 0, count: 10 })),
  },
  {
    name: 'search, exact field',
    action: 'search',
    bodies: [
      'tags:PII',
      'platform:kafka',
      'owners:user42',
      'origin:DEV',
      'tags:Gold',
      'platform:snowflake',
      'owners:user7',
      'id:daily_orders_7',
    ].map((input) => ({ input, entity: 'dataset', start: 0, count: 10 })),
  },
  {
    name: 'search, filtered',
    action: 'search',
    bodies: PLATFORMS.map((p, i) => ({
      input: THINGS[i] as string,
      entity: 'dataset',
      start: 0,
      count: 10,
      filter: {
        or: [
          {
            and: [
              { field: 'platform', value: `urn:li:dataPlatform:${p}` },
              { field: 'origin', value: 'PROD' },
            ],
          },
        ],
      },
    })),
  },
  {
    name: 'search, faceted (* over every dataset)',
    action: 'search',
    bodies: TAGS.map((t) => ({
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 10,
      filter: { or: [{ and: [{ field: 'tags', value: `urn:li:tag:${t}`, negated: true }] }] },
    })),
  },
  {
    name: 'autocomplete',
    action: 'autocomplete',
    bodies: ['ord', 'daily_cu', 'fin', 'raw_pay', 'snap', 'hourly_se', 'cust', 'agg_inv'].map((query) => ({
      query,
      entity: 'dataset',
      limit: 10,
    })),
  },
]

/** The raw index query of a request body (no HTTP). */
function rawQuery(index: SearchIndex, requests: RequestBuilder, kind: Kind, body: Record<string, unknown>) {
  if (kind.action === 'autocomplete')
    return index.autocomplete(
      requests.autocomplete({ query: String(body.query), entityType: 'dataset', limit: 10 }),
    )
  return index.search(
    requests.search({
      input: String(body.input),
      entityTypes: ['dataset'],
      start: 0,
      count: 10,
      ...(body.filter ? { filter: body.filter as never } : {}),
    }),
  )
}

export async function timeMany(
  n: number,
  run: (i: number) => Promise<unknown>,
): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(20, n); i++) await run(i)
  const ms: number[] = []
  for (let i = 0; i < n; i++) {
    const start = performance.now()
    await run(i)
    ms.push(performance.now() - start)
  }
  return { p50: percentile([...ms], 50), p95: percentile(ms, 95) }
}

export async function post(url: string, body: unknown): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`)
  return text
}

const line = (lines: string[], text: string) => {
  process.stdout.write(`${text}\n`)
  lines.push(text)
}

export async function searchBench(): Promise<string[]> {
  const lines: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-'))
  try {
    const registry = new Registry()
    const schema = new SearchSchema(registry)
    const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
    let started = Date.now()
    await writeDatasets(store, registry, N)
    const entries = await store.head()
    line(
      lines,
      `search benchmark: ${fmt(N)} synthetic datasets, ${fmt(entries)} change-log entries written through the store API in ${fmt((Date.now() - started) / 1000, 1)} s (not timed as index build)`,
    )

    const index = new SqliteSearchIndex({ file: join(dir, 'search.db'), schema })
    const services = createSearchServices(schema, index, storeChangeSource(store))
    const rssBefore = process.memoryUsage().rss
    started = Date.now()
    await services.sync.catchUp()
    const seconds = (Date.now() - started) / 1000
    const stats = await index.stats()
    const grew = (process.memoryUsage().rss - rssBefore) / 1e6
    await index.close()
    await store.close()
    const projected = (seconds * TARGET_DATASETS) / N
    const verdict = projected < 60 ? 'met' : 'NOT met'
    line(
      lines,
      `index build: ${fmt(N)} datasets in ${fmt(seconds, 1)} s = ${fmt(N / seconds)} datasets/s; ${N === TARGET_DATASETS ? '' : `projected ${fmt(projected, 1)} s for 100,000; `}(target 100,000 in < 60 s: ${verdict})`,
    )
    line(
      lines,
      `index size: ${fmt(stats.diskBytes / 1e6, 1)} MB on disk (search.db + WAL), ${fmt(stats.memoryBytes / 1e6, 1)} MB in memory (SQLite page cache, at most 32 MB, + vocabulary + facet values), build process RSS +${fmt(grew)} MB`,
    )

    const catalog = await startApp(
      'apps/gateway/src/all-in-one.ts',
      { PORT: '0', CATALOG_DATA_DIR: dir, CATALOG_AUTH: 'off', CATALOG_LOG_LEVEL: 'info' },
      120_000,
    )
    const raw = new SqliteSearchIndex({ file: join(dir, 'search.db'), schema })
    const requests = new RequestBuilder(schema)
    try {
      line(lines, `latency: ${SAMPLES} sequential requests per kind (after 20 warm-up requests), ms`)
      for (const kind of kinds) {
        const url = `${catalog.url}/entities?action=${kind.action}`
        const body = (i: number) => kind.bodies[i % kind.bodies.length] as Record<string, unknown>
        const sample = await post(url, body(0))
        const trivial = await startApp('bench/fixtures/trivial-server.ts', { FIXED_JSON: sample })
        try {
          const rawT = await timeMany(SAMPLES, (i) => rawQuery(raw, requests, kind, body(i)))
          const http = await timeMany(SAMPLES, (i) => post(url, body(i)))
          const base = await timeMany(SAMPLES, () => post(`${trivial.url}/fixed`, {}))
          const budget = rawT.p95 + base.p95
          const ratio = http.p95 / budget
          line(
            lines,
            `${kind.name}: p50 ${fmt(http.p50, 2)}, p95 ${fmt(http.p95, 2)} | raw index p50 ${fmt(rawT.p50, 2)}, p95 ${fmt(rawT.p95, 2)} | fastify fixed JSON (${fmt(sample.length)} B) p50 ${fmt(base.p50, 2)}, p95 ${fmt(base.p95, 2)} | p95 ${fmt(ratio, 2)}× (raw + HTTP) (target ≤ 2×: ${ratio <= 2 ? 'met' : 'NOT met'})`,
          )
        } finally {
          await trivial.stop()
        }
      }
      // The public gateway hides /internal/* (the index's own figures), so the size on disk is read
      // from the file the catalog serves, through this process's reader of it.
      const served = await raw.stats()
      const rss = rssMb(catalog.child.pid as number)
      line(
        lines,
        `catalog (npm start) resident memory after the queries: ${fmt(rss)} MB (target < 500 MB: ${rss < 500 ? 'met' : 'NOT met'}); its index on disk ${fmt(served.diskBytes / 1e6, 1)} MB`,
      )
    } finally {
      await raw.close()
      await catalog.stop()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return lines
}
