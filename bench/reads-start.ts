/**
 * Starts the all-in-one bundle of a repo copy (its own `dist/` and server flags) on a data dir,
 * for the benchmarks that compare builds in turns (`reads-cold-ab.ts`, `reads-scale-ratio.ts`,
 * `ingest-rss.ts`, `rss-after-scale.ts`), and runs those turns.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { type Running, whenListening } from '../test/helpers/spawn.js'

export interface BuildStart {
  /** Node flags after the copy's server flags. */
  readonly extraFlags?: readonly string[]
  /** Environment beside the defaults (port 0, auth off, info logs); wins over them. */
  readonly env?: Readonly<Record<string, string>>
  /** The server's working directory (default `root`). */
  readonly cwd?: string
}

/**
 * The catalog of the repo copy `root` on `dataDir` (auth off, any free port), with the node
 * flags `npm start` gives it (`scripts/server-node-flags.mjs` of that copy) plus `extraFlags`.
 */
export async function startBuild(root: string, dataDir: string, options: BuildStart = {}): Promise<Running> {
  const { SERVER_NODE_FLAGS } = (await import(
    pathToFileURL(join(root, 'scripts', 'server-node-flags.mjs')).href
  )) as { SERVER_NODE_FLAGS: string[] }
  return spawnCatalog(
    [...SERVER_NODE_FLAGS, ...(options.extraFlags ?? []), join(root, 'scripts', 'start.mjs')],
    dataDir,
    root,
    options,
  )
}

/**
 * A catalog started by node with `args` on `dataDir` (auth off, any free port, info logs, then
 * `options.env`), in `options.cwd` or `label`'s directory; `onExit` runs when the process ends.
 */
export function spawnCatalog(
  args: readonly string[],
  dataDir: string,
  label: string,
  options: Pick<BuildStart, 'env' | 'cwd'> & { readonly onExit?: () => void } = {},
): Promise<Running> {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? label,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      CATALOG_DATA_DIR: dataDir,
      CATALOG_AUTH: 'off',
      CATALOG_LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (options.onExit) child.once('exit', options.onExit)
  return whenListening(child, label, 600_000, false)
}

/** A variant's `root|flags` spelling: the repo copy and its extra node flags. */
export function variantOf(variant: string): { root: string; flags: string[] } {
  const [root, flagText] = variant.split('|') as [string, string | undefined]
  return { root, flags: flagText ? flagText.split(' ').filter(Boolean) : [] }
}

/**
 * Runs every variant once per round, in turns (A B A B ...), printing each round's load average,
 * and returns each variant's outcomes in round order.
 */
export async function inTurns<T>(
  variants: readonly string[],
  rounds: number,
  run: (variant: string, round: number) => Promise<T>,
): Promise<Map<string, T[]>> {
  const results = new Map<string, T[]>(variants.map((v) => [v, []]))
  for (let r = 0; r < rounds; r++)
    for (const v of variants) {
      process.stdout.write(`round ${r + 1}, load average ${loadAverage()}\n`)
      results.get(v)?.push(await run(v, r))
    }
  return results
}

/** The load average (1, 5, 15 minutes), as /proc/loadavg gives it. */
export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
}
