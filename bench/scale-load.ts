import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import Database from 'better-sqlite3'
import { runCatalogImport } from './import-data.js'
import { fmt } from './lib.js'
import { writeDatasetFile } from './scale-data.js'
import type { Row } from './scale-table.js'

/** What the load made (or what the reused dir holds). */
export interface Loaded {
  readonly dataDir: string
  readonly entities: number
  readonly aspectRows: number
  /** Every stored edge, and the `DownstreamOf` (lineage) ones among them. */
  readonly edges: number
  readonly lineageEdges: number
  /** Whole `catalog import` seconds (store and search index), 0 when reused. */
  readonly importSeconds: number
  /** The search-document part of `importSeconds`. */
  readonly indexSeconds: number
  /** Size of the JSON lines imported. */
  readonly inputBytes: number
  readonly reused: boolean
}

function counts(dataDir: string): { aspectRows: number; edges: number; lineageEdges: number } {
  const db = new Database(join(dataDir, 'metadata.db'), { readonly: true })
  try {
    const one = (sql: string) => (db.prepare(sql).pluck().get() as number) ?? 0
    return {
      aspectRows: one('SELECT COUNT(*) FROM aspect_rows'),
      edges: one('SELECT COUNT(*) FROM edge_rows'),
      lineageEdges: one("SELECT COUNT(*) FROM edge_rows WHERE type = 'DownstreamOf'"),
    }
  } finally {
    db.close()
  }
}

/** Loads `n` datasets into `<dir>/data` unless a finished load of `n` is there. */
export async function loadScaleData(dir: string, n: number, say: (line: string) => void): Promise<Loaded> {
  const dataDir = join(dir, 'data')
  const marker = join(dir, 'scale-load.json')
  if (existsSync(marker)) {
    const done = JSON.parse(readFileSync(marker, 'utf8')) as Loaded
    if (done.entities === n && existsSync(join(dataDir, 'metadata.db'))) {
      say(`reusing the data dir ${dataDir} (${fmt(n)} datasets, loaded before)`)
      return { ...done, dataDir, reused: true }
    }
  }
  // A missing marker means no finished load of this size: start again from an empty dir.
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(marker, { force: true })
  mkdirSync(dataDir, { recursive: true })
  const input = join(dir, 'datasets.jsonl')
  let t = performance.now()
  const lineageEdges = await writeDatasetFile(input, n)
  say(
    `input: ${fmt(n)} datasets, ${fmt(n * 3)} MCPs, ${fmt(lineageEdges)} upstream edges, ${fmt(statSync(input).size / 1e6, 1)} MB of JSON lines (${fmt((performance.now() - t) / 1000, 1)} s to write)`,
  )
  t = performance.now()
  const out = runCatalogImport(input, dataDir)
  const importSeconds = (performance.now() - t) / 1000
  const inputBytes = statSync(input).size
  rmSync(input, { force: true })
  say(out.trim())
  const loaded: Loaded = {
    dataDir,
    entities: n,
    ...counts(dataDir),
    importSeconds,
    indexSeconds: Number(/search documents ([\d.]+) s/.exec(out)?.[1] ?? 0),
    inputBytes,
    reused: false,
  }
  writeFileSync(marker, JSON.stringify(loaded))
  return loaded
}

/**
 * The load figure: aspect rows per second of the whole `catalog import` (search index
 * included; issue 14: ≥ 10,000 aspects/s by bulk import). Its raw-insert baseline is the
 * import benchmark's (`npm run bench -- import`); a reused dir shows the load that made it.
 */
export function loadRow(loaded: Loaded): Row {
  const rate = loaded.aspectRows / loaded.importSeconds
  const storeRate = loaded.aspectRows / (loaded.importSeconds - loaded.indexSeconds)
  return {
    figure: `bulk load (catalog import)${loaded.reused ? ', earlier run' : ''}`,
    result: `${fmt(rate)} aspect rows/s (${fmt(loaded.importSeconds)} s; store alone ${fmt(storeRate)}/s)`,
    baseline: '— (raw insert: bench -- import)',
    ratio: undefined,
    target: '≥ 10,000 aspect rows/s',
    met: rate >= 10_000,
  }
}
