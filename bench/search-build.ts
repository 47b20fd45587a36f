/**
 * `node --import tsx bench/search-build.ts`: the search-document build of `catalog import`, and
 * the search index's size and memory afterwards (not part of `npm run bench`).
 *
 * BENCH_ENTITIES synthetic datasets (default 100,000; the same MCPs as `bench/import.ts`: 7
 * aspect rows each) are imported by the real `catalog import` in a child process. It prints the
 * whole command's aspect rows/s beside its load-only rate (same run), the search build's
 * entities/s, the search file's bytes per aspect row by table and index, and the memory of a
 * process that opens the index and runs a few searches (RSS, heap, external, and what the index
 * says it holds), beside the same process before it opened the index.
 *
 * BENCH_DIR keeps the data dir: a second run on it reuses the loaded store and only rebuilds the
 * search index (every dataset marked for re-indexing, the old index file removed), so the search
 * build can be profiled alone (BENCH_PROF=1 adds `--cpu-prof` to the import's node).
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import Database from 'better-sqlite3'
import { ROOT } from '../test/helpers/spawn.js'
import { writeProposalLines } from './import-data.js'
import { cpuSeconds, fmt } from './lib.js'

const N = Number(process.env.BENCH_ENTITIES ?? 100_000)
const KEEP = process.env.BENCH_DIR
const sizeOf = (file: string) =>
  ['', '-wal', '-shm'].reduce((n, s) => n + (existsSync(file + s) ? statSync(file + s).size : 0), 0)

/** Marks every dataset of a loaded store for re-indexing and removes the search file. */
function resetSearch(dataDir: string): void {
  const db = new Database(join(dataDir, 'metadata.db'))
  db.exec(`INSERT OR IGNORE INTO bulk_import_touched (urn, entity_type, existed)
    SELECT urn, 'dataset', 0 FROM metadata_aspect_v2 WHERE aspect = 'datasetKey' AND version = 0`)
  db.close()
  for (const s of ['', '-wal', '-shm']) rmSync(join(dataDir, `search.db${s}`), { force: true })
}

/**
 * Runs `catalog import` (through /usr/bin/time for its CPU time, every thread counted); samples
 * its CPU time when the search build starts.
 */
function importCommand(
  args: readonly string[],
  dataDir: string,
): Promise<{ out: string; cpu: number; loadCpu: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, ...args], {
      cwd: ROOT,
      env: { ...process.env, CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    let loadCpu = 0
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
    })
    child.stderr.on('data', (d: Buffer) => {
      const text = d.toString()
      err += text
      if (loadCpu === 0 && text.includes('building the search documents')) {
        // The node process is time's only child.
        const pid = Number(execFileSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).trim())
        loadCpu = cpuSeconds(pid)
      }
      process.stderr.write(text.replace(/^cpu [\d.]+ [\d.]+\n/m, ''))
    })
    child.on('error', reject)
    child.on('close', (code) => {
      const m = /cpu ([\d.]+) ([\d.]+)/.exec(err)
      if (code !== 0 || !m) reject(new Error(`catalog import failed (${code})`))
      else resolve({ out, cpu: Number(m[1]) + Number(m[2]), loadCpu })
    })
  })
}

/** Opens the index in a fresh process, runs a few queries, and reports its memory. */
function memory(dataDir: string): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/search-memory.ts')], {
    cwd: ROOT,
    env: { ...process.env, SEARCH_FILE: join(dataDir, 'search.db') },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }).trim()
}

async function main(): Promise<void> {
  const dir = KEEP ?? mkdtempSync(join(tmpdir(), 'bench-search-build-'))
  mkdirSync(dir, { recursive: true })
  const dataDir = join(dir, 'data')
  const input = join(dir, 'datasets.jsonl')
  try {
    const reuse = KEEP !== undefined && existsSync(join(dataDir, 'metadata.db'))
    if (reuse) resetSearch(dataDir)
    else {
      rmSync(dataDir, { recursive: true, force: true })
      await writeProposalLines(input, N)
    }
    const prof = process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${join(dir, 'prof')}`] : []
    const t = performance.now()
    const run = await importCommand(
      [...prof, join(ROOT, 'apps/cli/bin/catalog.mjs'), 'import', input],
      dataDir,
    )
    const out = run.out
    const seconds = (performance.now() - t) / 1000
    process.stdout.write(`${out.trim()}\n`)
    const store = new Database(join(dataDir, 'metadata.db'), { readonly: true })
    const rows = (store.prepare('SELECT COUNT(*) AS n FROM metadata_aspect_v2').get() as { n: number }).n
    store.close()
    const indexSeconds = Number(/search documents ([\d.]+) s/.exec(out)?.[1] ?? 0)
    const load = seconds - indexSeconds
    if (!reuse)
      process.stdout.write(
        `whole command: ${fmt(rows / seconds)} aspect rows/s | load only: ${fmt(rows / load)} aspect rows/s (${fmt(load, 1)} s) | ratio ${fmt(load / seconds, 2)}×\n`,
      )
    const searchCpu = run.cpu - run.loadCpu
    process.stdout.write(
      `search documents: ${fmt(indexSeconds, 1)} s = ${fmt(N / indexSeconds)} entities/s, ${fmt(searchCpu, 1)} CPU-s (all threads) = ${fmt(N / searchCpu)} entities per CPU-s` +
        (reuse
          ? '\n'
          : `; load ${fmt(run.loadCpu, 1)} CPU-s = ${fmt(rows / run.loadCpu)} aspect rows per CPU-s\n`),
    )
    const search = join(dataDir, 'search.db')
    process.stdout.write(
      `search index: ${fmt(sizeOf(search) / 1e6, 1)} MB = ${fmt(sizeOf(search) / rows)} bytes per aspect row\n`,
    )
    const db = new Database(search, { readonly: true })
    for (const [name, bytes] of db
      .prepare('SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 12')
      .raw()
      .all() as Array<[string, number]>)
      process.stdout.write(`  ${name}: ${fmt(bytes / rows)} bytes per aspect row\n`)
    db.close()
    process.stdout.write(`${memory(dataDir)}\n`)
  } finally {
    if (!KEEP) rmSync(dir, { recursive: true, force: true })
  }
}

await main()
