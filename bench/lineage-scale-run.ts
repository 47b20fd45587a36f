/**
 * `BENCH_SCALE_ONLY=lineage npm run bench -- scale`: only the getLineage part of the scale
 * benchmark, on the data dir of BENCH_SCALE_DIR (loaded first if it holds no finished load).
 * With BENCH_LINEAGE_BEFORE=<dir of another build's bundle> (a copy of `dist/`, placed where
 * node finds the repository's `node_modules`, e.g. beside a symlink to it) and
 * BENCH_LINEAGE_BEFORE_DATA=<a copy of the data dir>, that build is timed in the same rounds,
 * so before and after compare within one run.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { type Running, whenListening } from '../test/helpers/spawn.js'
import { lineageRows, type Target } from './lineage-scale.js'
import { loadScaleData } from './scale-load.js'
import { startCatalog } from './scale-system.js'
import { type Row, renderTable } from './scale-table.js'

/** Starts the all-in-one bundle of `dir` on `dataDir` (auth off, any free port). */
function startBundleAt(dir: string, dataDir: string): Promise<Running> {
  const child = spawn(process.execPath, [join(dir, 'all-in-one.mjs')], {
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
