import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { canonicalJson, Registry } from '@catalog/core'
import Database from 'better-sqlite3'
import { STORE_DDL } from '../packages/store-sqlite/src/schema.js'
import { startApp } from '../test/helpers/spawn.js'
import { datasetProposals, runCatalogImport, STAMP, urnOf, writeProposalLines } from './import-data.js'
import { fmt, report, rssMb } from './lib.js'

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const N = Number(process.env.BENCH_ENTITIES ?? Math.max(1000, Math.round(100_000 * SCALE)))
/** The raw baseline: the same aspect rows (4 defaults + 3) and edges, inserted with no validation. */
function rawInsert(file: string): { seconds: number; rows: number } {
  const registry = new Registry()
  const entity = registry.entity('dataset')
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  db.pragma('cache_size = -131072')
  db.exec(STORE_DDL)
  // The store's layout: URNs once in `urns`, rows and edges by URN id (ids kept in a map here).
  // System metadata as columns: lastObserved, the run's id and the default lastRunId (0); the actor by id.
  db.prepare('INSERT INTO actors (id, actor) VALUES (1, ?)').run(STAMP.actor)
  db.prepare("INSERT INTO run_ids (id, run) VALUES (1, 'bench-import')").run()
  const insert = db.prepare(
    `INSERT INTO aspect_rows (eid, aspect, version, metadata, createdon, createdby, observed, run, lastrun, sysextra)
     VALUES (?, ?, 0, ?, ?, 1, ?, 1, 0, NULL)`,
  )
  const edge = db.prepare('INSERT OR IGNORE INTO edge_rows VALUES (?, ?, ?, ?)')
  const addUrn = db.prepare('INSERT INTO urns (urn) VALUES (?)')
  const ids = new Map<string, number>()
  const idOf = (urn: string) => {
    let id = ids.get(urn)
    if (id === undefined) {
      id = Number(addUrn.run(urn).lastInsertRowid)
      ids.set(urn, id)
    }
    return id
  }
  let rows = 0
  const started = performance.now()
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const ref = registry.resolveUrn(urnOf(i))
      const values = [
        ...registry.defaultAspects(ref),
        ...datasetProposals(i).map((p) => ({
          aspect: p.aspectName as string,
          value: (p.aspect as { json: unknown }).json,
        })),
      ]
      for (const { aspect, value } of values) {
        const id = idOf(ref.urn)
        insert.run(id, aspect, canonicalJson(value), STAMP.time, STAMP.time)
        for (const e of registry.edges(entity, aspect, value))
          edge.run(id, e.type, idOf(e.destination), aspect)
        rows++
      }
    }
  })
  for (let from = 0; from < N; from += 25_000 / 7)
    batch(Math.floor(from), Math.min(N, Math.floor(from + 25_000 / 7)))
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return { seconds: (performance.now() - started) / 1000, rows }
}

const sizeOf = (file: string) =>
  ['', '-wal', '-shm'].reduce((n, s) => n + (existsSync(file + s) ? statSync(file + s).size : 0), 0)

/** Bytes per table and index of a database (dbstat), largest first. */
function spaceByObject(file: string): Array<[string, number]> {
  const db = new Database(file, { readonly: true })
  try {
    return db
      .prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 9')
      .raw()
      .all() as Array<[string, number]>
  } finally {
    db.close()
  }
}

/** Starts `npm start` on a dir: time to its first 200, then RSS after 100 reads and a search. */
async function serve(dataDir: string): Promise<{ startMs: number; rssMb: number; search: string }> {
  const started = performance.now()
  const app = await startApp('apps/gateway/src/all-in-one.ts', {
    CATALOG_DATA_DIR: dataDir,
    CATALOG_AUTH: 'off',
    PORT: '0',
  })
  try {
    let status = 0
    while (status !== 200) status = (await fetch(`${app.url}/health`)).status
    const startMs = performance.now() - started
    for (let i = 0; i < 50; i++) {
      const urn = encodeURIComponent(urnOf((i * 7919) % N))
      await (await fetch(`${app.url}/entitiesV2/${urn}`)).text()
      await (
        await fetch(`${app.url}/relationships?urn=${urn}&types=List(DownstreamOf)&direction=OUTGOING`)
      ).text()
    }
    const res = await fetch(`${app.url}/entities?action=search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'orders region', entity: 'dataset', start: 0, count: 10 }),
    })
    const hits = ((await res.json()) as { value?: { numEntities?: number } }).value?.numEntities
    return { startMs, rssMb: rssMb(app.child.pid as number), search: `${res.status}, ${fmt(hits ?? 0)} hits` }
  } finally {
    await app.stop()
  }
}

export async function importBench(): Promise<string[]> {
  const lines: string[] = []
  const say = (text: string) => {
    process.stdout.write(`${text}\n`)
    lines.push(text)
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'))
  try {
    const input = join(dir, 'datasets.jsonl')
    let t = performance.now()
    await writeProposalLines(input, N)
    say(
      `input: ${fmt(N)} datasets, ${fmt(N * 3)} MCPs, ${fmt(statSync(input).size / 1e6, 1)} MB of JSON lines (${fmt((performance.now() - t) / 1000, 1)} s to write)`,
    )
    const raw = rawInsert(join(dir, 'raw.db'))
    const dataDir = join(dir, 'data')
    t = performance.now()
    const out = runCatalogImport(input, dataDir)
    const seconds = (performance.now() - t) / 1000
    say(out.trim())
    const store = join(dataDir, 'metadata.db')
    const db = new Database(store, { readonly: true })
    const rows = (db.prepare('SELECT COUNT(*) AS n FROM aspect_rows').get() as { n: number }).n
    const edges = (db.prepare('SELECT COUNT(*) AS n FROM edge_rows').get() as { n: number }).n
    db.close()
    say(
      `stored: ${fmt(rows)} aspect rows, ${fmt(edges)} edges in ${fmt(seconds, 1)} s (whole command, search index included)`,
    )
    lines.push(
      report(
        'bulk import',
        rows / seconds,
        'aspect rows/s',
        raw.rows / raw.seconds,
        'raw insert of the same rows and edges',
      ),
    )
    const indexSeconds = Number(/search documents ([\d.]+) s/.exec(out)?.[1] ?? 0)
    say(
      `of which: load ${fmt(seconds - indexSeconds, 1)} s = ${fmt(rows / (seconds - indexSeconds))} aspect rows/s; search documents ${fmt(indexSeconds, 1)} s = ${fmt(N / indexSeconds)} entities/s`,
    )
    say(`target: ≥ 10,000 aspect rows/s: ${rows / seconds >= 10_000 ? 'met' : 'NOT met'}`)
    const storeBytes = sizeOf(store)
    const searchBytes = sizeOf(join(dataDir, 'search.db'))
    say(
      `disk: store ${fmt(storeBytes / 1e6, 1)} MB + search ${fmt(searchBytes / 1e6, 1)} MB = ${fmt((storeBytes + searchBytes) / rows)} bytes per aspect row (raw insert: ${fmt(sizeOf(join(dir, 'raw.db')) / raw.rows)} bytes per row)`,
    )
    say(`store: ${fmt(storeBytes / N)} bytes per dataset (issue 14's store target ≤ ~4,000)`)
    for (const [name, bytes] of spaceByObject(store))
      say(`  store ${name}: ${fmt(bytes / rows)} bytes per aspect row, ${fmt(bytes / N)} per dataset`)
    for (const [name, bytes] of spaceByObject(join(dataDir, 'search.db')))
      say(`  search ${name}: ${fmt(bytes / rows)} bytes per aspect row`)
    const empty = await serve(join(dir, 'empty'))
    const full = await serve(dataDir)
    say(`search "orders region" on the imported dir: ${full.search}`)
    lines.push(
      report('restart, first 200', full.startMs, 'ms', empty.startMs, 'npm start on an empty data dir'),
    )
    say(`restart target ≤ 2,000 ms: ${full.startMs <= 2_000 ? 'met' : 'NOT met'}`)
    lines.push(
      report('RSS after 100 reads and a search', full.rssMb, 'MB', empty.rssMb, 'the same on an empty dir'),
    )
    say(`RSS target ≤ 300 MB: ${full.rssMb <= 300 ? 'met' : 'NOT met'}`)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return lines
}
