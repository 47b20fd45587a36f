/**
 * Read benchmark: `GET /entitiesV2/<urn>`, `GET /aspects/<urn>?aspect=..&version=0` and
 * `GET /relationships` over HTTP against the all-in-one catalog (embedded SQLite,
 * authentication on, the admin token), beside node's own http server answering a fixed body of
 * the entity answer's size, measured in the same run. Each read prints requests/s and its ratio
 * to the baseline (target ≥ 0.5×, met or not), and server CPU-µs per request (every thread)
 * beside the baseline's, with their ratio: the throughput ratio the server would reach if the
 * load generator left it a whole core.
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
    const aspectPath = (n: number) =>
      `/aspects/${encodeURIComponent(urn(n % ENTITIES))}?aspect=datasetProperties&version=0`
    const aspects = { ...entities, path: aspectPath(0), pathOf: aspectPath }
    const reads = [
      ['GET /entitiesV2/<urn>', entities],
      ['GET /aspects/<urn>?aspect=&version=0', aspects],
      ['GET /relationships', relationships],
    ] as const
    // Warm every server (JIT, SQLite page cache) before anything is measured.
    for (const opts of [base, ...reads.map(([, o]) => o)]) await load({ ...opts, durationSec: 2 })
    // For reference, the baseline as earlier runs drove it (one path, no headers): the load
    // generator's own work per request is smaller, so the same server answers more.
    const plain = await measured(basePid, { ...base, durationSec: DURATION })
    const plainLine = `node http, fixed body, driven with one fixed path and no headers: ${fmt(plain.requestsPerSec)} req/s, ${fmt(plain.cpuUs)} server CPU-µs/request`
    process.stdout.write(`${plainLine}\n`)
    lines.push(plainLine)

    for (const [name, opts] of reads) {
      // The baseline right before each read (the machine's load drifts during a run), driven with
      // the same requests (paths built per request, headers): the load generator, on the same
      // machine, does the same work for both, and the baseline server ignores what it is sent.
      const fixed = await measured(basePid, {
        ...opts,
        url: baseline.url,
        durationSec: DURATION,
      })
      const run = await measured(pid, { ...opts, durationSec: DURATION })
      lines.push(
        report(name, run.requestsPerSec, 'req/s', fixed.requestsPerSec, 'node http, fixed body', 0.5),
      )
      const cpuRatio = fixed.cpuUs / run.cpuUs
      const detail = `  server CPU ${fmt(run.cpuUs)} µs/request (baseline ${fmt(fixed.cpuUs)} µs): CPU ratio ${fmt(cpuRatio, 2)}× (≥ 0.5×: ${cpuRatio >= 0.5 ? 'met' : 'NOT met'}); latency p50 ${run.p50} ms, p99 ${run.p99} ms`
      process.stdout.write(`${detail}\n`)
      lines.push(detail)
    }
  } catch (err) {
    process.stderr.write(`catalog output (tail):\n${catalog.output().slice(-4000)}\n`)
    throw err
  } finally {
    await baseline?.stop()
    await catalog.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return lines
}
