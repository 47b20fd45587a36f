/**
 * Read benchmark: `GET /entitiesV2/<urn>` and `GET /relationships` over HTTP against the
 * all-in-one catalog (embedded SQLite, authentication on, the admin token), beside node's own
 * http server answering a fixed body of the same size, measured in the same run. Each line gives
 * requests/s, the ratio to the baseline, and server CPU-µs per request (every thread).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp } from '../test/helpers/spawn.js'
import { cpuSeconds, fmt, type LoadOptions, type LoadResult, load, report } from './lib.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const DURATION = Math.max(3, Math.round(10 * SCALE))
const ENTITIES = 1000

const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,reads_db.orders_${i},PROD)`
const mcp = (i: number, aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn(i),
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value), contentType: 'application/json' },
})

/** A dataset as ingestion writes it: properties, schema, owner, tags and one upstream. */
function datasetProposals(i: number): unknown[] {
  const stamp = { time: 1700000000000, actor: 'urn:li:corpuser:datahub' }
  return [
    mcp(i, 'datasetProperties', {
      name: `orders_${i}`,
      description: `Daily snapshot of orders for region ${i % 13}`,
      customProperties: { owner_team: `team-${i % 17}` },
    }),
    mcp(i, 'schemaMetadata', {
      schemaName: `orders_${i}`,
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
      fields: ['id', 'customer_id', 'amount', 'created_at'].map((fieldPath) => ({
        fieldPath,
        nativeDataType: 'string',
        type: { type: { 'com.linkedin.schema.StringType': {} } },
      })),
    }),
    mcp(i, 'ownership', {
      owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
      lastModified: stamp,
    }),
    mcp(i, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }] }),
    mcp(i, 'upstreamLineage', {
      upstreams: [{ dataset: urn((i + ENTITIES - 1) % ENTITIES), type: 'TRANSFORMED', auditStamp: stamp }],
    }),
  ]
}

/** One load run with the server CPU it cost, in µs per request. */
async function measured(pid: number, opts: LoadOptions): Promise<LoadResult & { cpuUs: number }> {
  const before = cpuSeconds(pid)
  const result = await load(opts)
  const cpuUs = ((cpuSeconds(pid) - before) * 1e6) / Math.max(1, result.total)
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${opts.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  return { ...result, cpuUs }
}

export async function readsBench(): Promise<string[]> {
  const lines: string[] = []
  const dir = mkdtempSync(join(tmpdir(), 'bench-reads-'))
  const catalog = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_LOG_LEVEL: 'info',
  })
  let baseline: Awaited<ReturnType<typeof startApp>> | undefined
  try {
    const token = readFileSync(join(dir, 'admin.token'), 'utf8').trim()
    const headers = { authorization: `Bearer ${token}` }
    for (let i = 0; i < ENTITIES; i += 100) {
      const proposals = Array.from({ length: 100 }, (_, k) => datasetProposals(i + k)).flat()
      const res = await fetch(`${catalog.url}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ proposals }),
      })
      if (!res.ok) throw new Error(`loading the bench data: ${res.status} ${await res.text()}`)
    }
    const entityPath = (n: number) => `/entitiesV2/${encodeURIComponent(urn(n % ENTITIES))}`
    const sample = await (await fetch(catalog.url + entityPath(1), { headers })).text()
    baseline = await startApp('bench/fixtures/node-http-server.ts', { FIXED_JSON: sample })
    process.stdout.write(
      `reads benchmark: ${DURATION}s per run, 32 connections, ${ENTITIES} datasets, an entity answer of ${fmt(sample.length)} bytes\n`,
    )
    const basePid = baseline.child.pid as number
    const pid = catalog.child.pid as number
    const base = { url: baseline.url, path: '/', method: 'GET' as const }
    const entities = {
      url: catalog.url,
      path: entityPath(0),
      pathOf: entityPath,
      method: 'GET' as const,
      headers,
    }
    const relPath = (n: number) =>
      `/relationships?direction=INCOMING&urn=${encodeURIComponent(urn(n % ENTITIES))}&types=List(DownstreamOf)`
    const relationships = { ...entities, path: relPath(0), pathOf: relPath }
    // Warm every server (JIT, SQLite page cache) before anything is measured.
    for (const opts of [base, entities, relationships]) await load({ ...opts, durationSec: 2 })

    const fixed = await measured(basePid, { ...base, durationSec: DURATION })
    for (const [name, opts] of [
      ['GET /entitiesV2/<urn>', entities],
      ['GET /relationships', relationships],
    ] as const) {
      const run = await measured(pid, { ...opts, durationSec: DURATION })
      lines.push(
        report(name, run.requestsPerSec, 'req/s', fixed.requestsPerSec, 'node http, fixed body', 0.5),
      )
      const detail = `  server CPU ${fmt(run.cpuUs)} µs/request (baseline ${fmt(fixed.cpuUs)} µs); latency p50 ${run.p50} ms, p99 ${run.p99} ms`
      process.stdout.write(`${detail}\n`)
      lines.push(detail)
    }
  } finally {
    await baseline?.stop()
    await catalog.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return lines
}
