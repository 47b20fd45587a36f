/**
 * Starts the all-in-one bundle of a repo copy (its own `dist/` and server flags) on a data dir,
 * for the benchmarks that compare builds in turns (`reads-cold-ab.ts`, `reads-scale-ratio.ts`).
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Running, whenListening } from '../test/helpers/spawn.js'

/**
 * The catalog of the repo copy `root` on `dataDir` (auth off, any free port), with the node
 * flags `npm start` gives it (`scripts/server-node-flags.mjs` of that copy) plus `extraFlags`.
 */
export async function startBuild(
  root: string,
  dataDir: string,
  extraFlags: readonly string[] = [],
): Promise<Running> {
  const { SERVER_NODE_FLAGS } = (await import(
    pathToFileURL(join(root, 'scripts', 'server-node-flags.mjs')).href
  )) as { SERVER_NODE_FLAGS: string[] }
  const child = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, ...extraFlags, join(root, 'scripts', 'start.mjs')],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        CATALOG_DATA_DIR: dataDir,
        CATALOG_AUTH: 'off',
        CATALOG_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  return whenListening(child, root, 600_000, false)
}

/** The load average (1, 5, 15 minutes), as /proc/loadavg gives it. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
}
