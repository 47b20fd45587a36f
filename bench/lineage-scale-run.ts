import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, type Running } from '../test/helpers/spawn.js'
import { lineageRows, type Target } from './lineage-scale.js'
import { spawnCatalog } from './reads-start.js'
import { loadScaleData } from './scale-load.js'
import { startCatalog } from './scale-system.js'
import { type Row, renderTable } from './scale-table.js'

/** This repository's `scripts/server-node-flags.mjs`: the flags the catalog under test runs with. */
const FLAGS_MODULE = pathToFileURL(join(ROOT, 'scripts', 'server-node-flags.mjs')).href

/** How to start a bundle as `npm start` does: node's arguments, and what to remove after. */
export interface BundleStart {
  readonly args: string[]
  /** Removes the entry file written for the start. */
  readonly cleanup: () => void
}

/**
 * Node's arguments that start the all-in-one bundle of `dir` as `npm start` starts the catalog
 * under test (`startBundled`, then `scripts/start.mjs`): the server's node flags, and the search
 * worker's young generation released before the bundle loads. The entry is a small file, as
 * scripts/start.mjs is: an `--eval` entry's `--input-type` would pass on to the search worker.
 */
export async function bundleStart(dir: string): Promise<BundleStart> {
  const { SERVER_NODE_FLAGS } = (await import(FLAGS_MODULE)) as { SERVER_NODE_FLAGS: string[] }
  const home = mkdtempSync(join(tmpdir(), 'lineage-before-'))
  const entry = join(home, 'start.mjs')
  writeFileSync(
    entry,
    `import { releaseWorkerYoungGeneration } from ${JSON.stringify(FLAGS_MODULE)}\n` +
      'releaseWorkerYoungGeneration()\n' +
      `await import(${JSON.stringify(pathToFileURL(join(dir, 'all-in-one.mjs')).href)})\n`,
  )
  return {
    args: [...SERVER_NODE_FLAGS, entry],
    cleanup: () => rmSync(home, { recursive: true, force: true }),
  }
}

/**
 * Starts the all-in-one bundle of `dir` on `dataDir` (auth off, any free port) with the catalog
 * under test's node flags ({@link bundleStart}). It ran with none: V8's default young generation
 * and heap growth, so its p95 and CPU per request did not compare with the catalog's.
 */
async function startBundleAt(dir: string, dataDir: string): Promise<Running> {
  const { args, cleanup } = await bundleStart(dir)
  return spawnCatalog(args, dataDir, dir, { onExit: cleanup })
}

const target = (r: Running): Target => ({ url: r.url, pid: r.child.pid as number })

/** The lineage rows alone; see the file's comment. */
export async function lineageOnly(
  dir: string,
  n: number,
  samples: number,
  say: (line: string) => void,
): Promise<void> {
  const loaded = await loadScaleData(dir, n, say)
  const beforeDir = process.env.BENCH_LINEAGE_BEFORE
  const beforeData = process.env.BENCH_LINEAGE_BEFORE_DATA
  if (beforeDir && !beforeData) throw new Error('BENCH_LINEAGE_BEFORE needs BENCH_LINEAGE_BEFORE_DATA')
  const catalog = await startCatalog(loaded.dataDir)
  const before = beforeDir && beforeData ? await startBundleAt(beforeDir, beforeData) : undefined
  let rows: Row[]
  try {
    rows = await lineageRows({
      catalog: target(catalog),
      ...(before ? { before: target(before) } : {}),
      storeFile: join(loaded.dataDir, 'metadata.db'),
      n,
      samples,
      say,
    })
  } finally {
    await catalog.stop()
    await before?.stop()
  }
  say('')
  for (const row of renderTable(rows)) say(row)
}
