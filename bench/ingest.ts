/**
 * Ingest benchmark: single `ingestProposal` requests/s and `ingestProposalBatch` aspects/s
 * over HTTP against `npm start` (all-in-one, embedded SQLite, durability full), each beside a
 * baseline measured in the same run: fastify answering a trivial POST, and raw better-sqlite3
 * inserts of the same rows. Then resident memory after 1,000,000 aspects.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { startApp } from '../test/helpers/spawn.js'
import { fmt, load, report, rssMb } from './lib.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const DURATION = Math.max(3, Math.round(10 * SCALE))
const BATCH = 100

const urn = (i: number) =>
  `urn:li:dataset:(urn:li:dataPlatform:hive,bench_db.schema_${i % 97}.table_${i},PROD)`
const props = (i: number) =>
  JSON.stringify({
    description: `Table ${i} holds the daily snapshot of orders for region ${i % 13}`,
    customProperties: { owner_team: `team-${i % 17}` },
  })
const proposal = (i: number, aspectName = 'datasetProperties', value = props(i)) => ({
  entityType: 'dataset',
  entityUrn: urn(i),
  changeType: 'UPSERT',
  aspectName,
  aspect: { value, contentType: 'application/json' },
})

export async function ingestBench(): Promise<string[]> {
  const lines: string[] = []
  /** A line printed at once (as `report` prints its own) and returned. */
  const say = (line: string) => {
    process.stdout.write(`${line}\n`)
    lines.push(line)
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-ingest-'))
  const trivial = await startApp('bench/fixtures/trivial-server.ts', {})
  const catalog = await startApp('apps/gateway/src/all-in-one.ts', {
    PORT: '0',
    CATALOG_DATA_DIR: dir,
    CATALOG_AUTH: 'off',
    CATALOG_LOG_LEVEL: 'info',
    CATALOG_DURABILITY: 'full',
  }).catch(async (err) => {
    await trivial.stop()
    throw err
  })
  try {
    process.stdout.write(`ingest benchmark: ${DURATION}s per run, 32 connections, data in ${dir}\n`)
    const sample = JSON.stringify({ proposal: proposal(0) })
    // Warm both servers (JIT, SQLite page cache) before anything is measured.
    await load({ url: trivial.url, path: '/echo', body: () => sample, durationSec: 2 })
    await load({
      url: catalog.url,
      path: '/aspects?action=ingestProposal',
      body: (n) => JSON.stringify({ proposal: proposal(500_000_000 + n) }),
      durationSec: 2,
    })
    const base = await load({ url: trivial.url, path: '/echo', body: () => sample, durationSec: DURATION })
    let offset = 1_000_000_000
    const cpuBefore = cpuMs(catalog.child.pid)
    const single = await load({
      url: catalog.url,
      path: '/aspects?action=ingestProposal',
      body: (n) => JSON.stringify({ proposal: proposal(offset + n) }),
      durationSec: DURATION,
    })
    if (single.non2xx > 0 || single.errors > 0)
      throw new Error(`single ingest had ${single.non2xx} non-2xx, ${single.errors} errors`)
    lines.push(
      report(
        'ingestProposal (single)',
        single.requestsPerSec,
        'req/s',
        base.requestsPerSec,
        'fastify trivial POST',
        0.35,
      ),
    )
    const cpuSingle = cpuMs(catalog.child.pid)
    say(
      `  latency p50 ${single.p50} ms, p99 ${single.p99} ms (trivial POST p50 ${base.p50} ms, p99 ${base.p99} ms)`,
    )
    if (cpuBefore !== undefined && cpuSingle !== undefined)
      say(`  server CPU per write ${fmt(((cpuSingle - cpuBefore) * 1000) / single.total)} µs (all threads)`)

    offset = 2_000_000_000
    const batch = await load({
      url: catalog.url,
      path: '/aspects?action=ingestProposalBatch',
      body: (n) =>
        JSON.stringify({
          proposals: Array.from({ length: BATCH }, (_, k) => proposal(offset + n * BATCH + k)),
        }),
      connections: 8,
      durationSec: DURATION,
    })
    const cpuBatch = cpuMs(catalog.child.pid)
    if (batch.non2xx > 0 || batch.errors > 0)
      throw new Error(`batch ingest had ${batch.non2xx} non-2xx, ${batch.errors} errors`)
    const rows = Math.max(20_000, Math.round(200_000 * SCALE))
    const raw = rawInsertRate(join(dir, 'raw-baseline.db'), rows, false)
    lines.push(
      report(
        'ingestProposalBatch',
        batch.requestsPerSec * BATCH,
        'aspects/s',
        raw,
        'raw better-sqlite3 insert',
        0.3,
      ),
    )
    if (cpuSingle !== undefined && cpuBatch !== undefined)
      say(
        `  server CPU per aspect ${fmt(((cpuBatch - cpuSingle) * 1000) / (batch.total * BATCH))} µs (all threads)`,
      )
    // For scale: what a new entity really costs in rows. Each proposal for a new dataset also
    // writes its key, browsePaths and dataPlatformInstance aspects, and every row has a
    // change-log entry: 8 rows per ingested aspect.
    const rawAll = rawInsertRate(join(dir, 'raw-baseline-all.db'), rows, true)
    lines.push(
      report(
        '  same, beside a raw insert of every row it writes',
        batch.requestsPerSec * BATCH,
        'aspects/s',
        rawAll,
        'raw insert, 8 rows/aspect',
      ),
    )

    // Resident memory after 1,000,000 aspects (by default; BENCH_SCALE shrinks it).
    const target = Math.round(1_000_000 * SCALE)
    const stored = single.total + batch.total * BATCH
    const remaining = Math.max(0, target - stored)
    offset = 3_000_000_000
    const started = Date.now()
    if (remaining > 0) {
      await load({
        url: catalog.url,
        path: '/aspects?action=ingestProposalBatch',
        body: (n) =>
          JSON.stringify({
            proposals: Array.from({ length: 1000 }, (_, k) => proposal(offset + n * 1000 + k)),
          }),
        connections: 4,
        amount: Math.ceil(remaining / 1000),
      })
    }
    const rss = rssMb(catalog.child.pid as number)
    const verdict = rss < 300 ? 'met' : 'NOT met'
    const line = `resident memory after ${fmt(Math.max(target, stored))} aspects ingested: ${fmt(rss)} MB (target < 300 MB: ${verdict}); last ${fmt(remaining)} took ${fmt((Date.now() - started) / 1000, 1)} s`
    process.stdout.write(`${line}\n`)
    lines.push(line)
  } finally {
    await catalog.stop()
    await trivial.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return lines
}

/**
 * The raw baseline: the same rows into the same table layout, 100 aspects per transaction,
 * WAL + synchronous FULL. With `everyRow`, also the rows a new entity really costs: its
 * three default aspects and a change-log entry per row.
 */
function rawInsertRate(file: string, aspects: number, everyRow: boolean): number {
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = FULL')
  db.exec(`CREATE TABLE metadata_aspect_v2 (urn TEXT NOT NULL, aspect TEXT NOT NULL, version INTEGER NOT NULL, metadata TEXT NOT NULL,
    systemmetadata TEXT, createdon INTEGER NOT NULL, createdby TEXT NOT NULL, PRIMARY KEY (urn, aspect, version)) WITHOUT ROWID;
    CREATE TABLE change_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, urn TEXT NOT NULL, aspect TEXT NOT NULL, value TEXT)`)
  const insert = db.prepare('INSERT INTO metadata_aspect_v2 VALUES (?, ?, 0, ?, ?, ?, ?)')
  const log = db.prepare('INSERT INTO change_log (urn, aspect, value) VALUES (?, ?, ?)')
  const sm = JSON.stringify({ lastObserved: Date.now(), runId: 'no-run-id-provided' })
  const defaults = ['datasetKey', 'browsePaths', 'dataPlatformInstance']
  const tx = db.transaction((from: number) => {
    for (let i = from; i < from + BATCH; i++) {
      const value = props(i)
      insert.run(urn(i), 'datasetProperties', value, sm, Date.now(), 'urn:li:corpuser:datahub')
      if (!everyRow) continue
      log.run(urn(i), 'datasetProperties', value)
      for (const aspect of defaults) {
        insert.run(urn(i), aspect, '{"x":1}', sm, Date.now(), 'urn:li:corpuser:datahub')
        log.run(urn(i), aspect, '{"x":1}')
      }
    }
  })
  const start = process.hrtime.bigint()
  for (let i = 0; i < aspects; i += BATCH) tx(i)
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  db.close()
  return aspects / seconds
}

/** CPU time (user + system, every thread) a process has used, in ms; undefined off Linux. */
function cpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return undefined
  }
}
