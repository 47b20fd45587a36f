/**
 * The process figures of the scale benchmark: restart time (spawn of `npm start`'s bundle to
 * the first 200 of a real read, `GET /entitiesV2/<urn>`), resident memory, and disk per entity
 * and per aspect row (store and search files, WAL and shared memory included), each beside the
 * same on an empty data dir or, for disk, beside the JSON lines that were imported.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { ROOT, type Running, startBundled } from '../test/helpers/spawn.js'
import { fmt, percentile, rssMb } from './lib.js'
import { datasetUrn } from './scale-data.js'
import type { Loaded } from './scale-load.js'
import type { Row } from './scale-table.js'

const BUNDLE_RECORD = join(ROOT, 'dist', 'bundle.json')
const bundleStamp = () => (existsSync(BUNDLE_RECORD) ? statSync(BUNDLE_RECORD).mtimeMs : 0)

/** Starts `npm start`'s all-in-one bundle on a data dir (auth off, any free port). */
export function startCatalog(dataDir: string): Promise<Running> {
  return startBundled(
    'all-in-one',
    { PORT: '0', CATALOG_DATA_DIR: dataDir, CATALOG_AUTH: 'off', CATALOG_LOG_LEVEL: 'info' },
    600_000,
  )
}

/** Milliseconds from spawn to the first 200 of `GET /entitiesV2/<dataset 0>`; the catalog is stopped after. */
async function restartOnce(dataDir: string): Promise<number> {
  const started = performance.now()
  const app = await startCatalog(dataDir)
  try {
    const url = `${app.url}/entitiesV2/${encodeURIComponent(datasetUrn(0))}`
    for (;;) {
      const res = await fetch(url)
      await res.text()
      if (res.status === 200) return performance.now() - started
      if (performance.now() - started > 600_000) throw new Error(`${url} never answered 200`)
    }
  } finally {
    await app.stop()
  }
}

/**
 * Restart time on the loaded dir and on an empty one, `runs` each, interleaved. One untimed start
 * first rebuilds `npm start`'s bundle if a source changed; a run during which the bundle was
 * rebuilt (another engineer's edit) is repeated, at most twice.
 */
export async function restartRow(
  dataDir: string,
  emptyDir: string,
  runs: number,
  say: (l: string) => void,
): Promise<Row> {
  await restartOnce(emptyDir)
  const full: number[] = []
  const empty: number[] = []
  for (const [dir, into] of Array.from({ length: runs }, () => [
    [dataDir, full],
    [emptyDir, empty],
  ]).flat() as Array<[string, number[]]>) {
    for (let attempt = 0; ; attempt++) {
      const stamp = bundleStamp()
      const ms = await restartOnce(dir)
      if (bundleStamp() === stamp || attempt >= 2) {
        into.push(ms)
        break
      }
    }
  }
  say(
    `restart runs (ms): loaded dir ${full.map((m) => fmt(m)).join(', ')}; empty dir ${empty.map((m) => fmt(m)).join(', ')}`,
  )
  const [f, e] = [percentile([...full], 50), percentile([...empty], 50)]
  return {
    figure: `restart to first 200 (median of ${runs})`,
    result: `${fmt(f)} ms`,
    baseline: `empty data dir: ${fmt(e)} ms`,
    ratio: f / e,
    target: '≤ 2,000 ms',
    met: f <= 2_000,
  }
}

/** Resident memory of a process in MB: all of it, and the anonymous part (heaps, caches) and file part (code, mapped files). */
export interface Resident {
  readonly mb: number
  readonly anonMb: number
  readonly fileMb: number
}

/** Resident memory of the loaded catalog after the queries, beside an empty catalog's after the same reads. */
export function rssRow(loaded: Resident, empty: Resident): Row {
  const parts = (r: Resident) => `${fmt(r.mb)} MB (anonymous ${fmt(r.anonMb)}, files ${fmt(r.fileMb)})`
  return {
    figure: 'RSS after the queries',
    result: parts(loaded),
    baseline: `empty catalog, same reads: ${parts(empty)}`,
    ratio: loaded.mb / empty.mb,
    target: '≤ 300 MB',
    met: loaded.mb <= 300,
  }
}

/** Resident memory of a running catalog (Linux /proc). */
export function catalogRss(app: Running): Resident {
  const pid = app.child.pid as number
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
  return { mb: rssMb(pid), anonMb: kb('RssAnon') / 1024, fileMb: (kb('RssFile') + kb('RssShmem')) / 1024 }
}

/** Bytes of the files whose names start with `prefix` in `dir` (the database, its -wal and -shm). */
function bytesOf(dir: string, prefix: string): number {
  let total = 0
  for (const name of readdirSync(dir)) if (name.startsWith(prefix)) total += statSync(join(dir, name)).size
  return total
}

/** Disk per entity (target ≤ 8,000 B: 8 GB at 1M) and per aspect row, beside the imported JSON. */
export function diskRows(loaded: Loaded, say: (l: string) => void): Row[] {
  const store = bytesOf(loaded.dataDir, 'metadata.db')
  const search = bytesOf(loaded.dataDir, 'search.db')
  say(
    `disk: store ${fmt(store / 1e6, 1)} MB + search ${fmt(search / 1e6, 1)} MB for ${fmt(loaded.entities)} datasets, ${fmt(loaded.aspectRows)} aspect rows, ${fmt(loaded.edges)} edges (${fmt(loaded.lineageEdges)} DownstreamOf)`,
  )
  const perEntity = (store + search) / loaded.entities
  const jsonPerEntity = loaded.inputBytes / loaded.entities
  const perRow = (store + search) / loaded.aspectRows
  return [
    {
      figure: 'disk per dataset',
      result: `${fmt(perEntity)} B (store ${fmt(store / loaded.entities)} + search ${fmt(search / loaded.entities)})`,
      baseline: `imported MCP JSON: ${fmt(jsonPerEntity)} B`,
      ratio: perEntity / jsonPerEntity,
      target: '≤ 8,000 B (8 GB at 1M)',
      met: perEntity <= 8_000,
    },
    {
      figure: 'disk per aspect row',
      result: `${fmt(perRow)} B`,
      baseline: `imported MCP JSON: ${fmt(loaded.inputBytes / loaded.aspectRows)} B`,
      ratio: perRow / (loaded.inputBytes / loaded.aspectRows),
      target: '—',
      met: undefined,
    },
  ]
}
