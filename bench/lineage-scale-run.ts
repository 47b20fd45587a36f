/**
 * `BENCH_SCALE_ONLY=lineage npm run bench -- scale`: only the getLineage part of the scale
 * benchmark, on the data dir of BENCH_SCALE_DIR (loaded first if it holds no finished load).
 * With BENCH_LINEAGE_BEFORE=<dir of another build's bundle> (a copy of `dist/`, placed where
 * node finds the repository's `node_modules`, e.g. beside a symlink to it) and
 * BENCH_LINEAGE_BEFORE_DATA=<a copy of the data dir>, that build is timed in the same rounds,
 * so before and after compare within one run.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ROOT, type Running, whenListening } from '../test/helpers/spawn.js'
import { lineageRows, type Target } from './lineage-scale.js'
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
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      CATALOG_AUTH: 'off',
      CATALOG_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.once('exit', cleanup)
  return whenListening(child, dir, 600_000, false)
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
