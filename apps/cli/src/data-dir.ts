import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readlinkSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { ADMIN_TOKEN_FILE, SECRET_FILE } from '@catalog/auth'
import type { Config } from '@catalog/config'
import { InvalidInputError } from '@catalog/core'

/**
 * The embedded catalog's files in its data dir: the metadata store and the search index
 * (as `openStore` and `openSearchIndex` name them), the token signing secret and the
 * bootstrap admin token.
 */
export const DATA_FILES = {
  store: 'metadata.db',
  search: 'search.db',
  secret: SECRET_FILE,
  adminToken: ADMIN_TOKEN_FILE,
} as const

/** SQLite's companions of a database file: a live WAL and its shared-memory index. */
export const SQLITE_SIDE_FILES = ['-wal', '-shm', '-journal'] as const

/**
 * Backup, restore and check work on the embedded store and index only; with Neo4j or
 * Meilisearch configured they refuse (exit 2) rather than copy files nobody reads.
 */
export function requireEmbedded(config: Config, command: string): void {
  const other = [
    config.CATALOG_STORE !== 'sqlite' ? `CATALOG_STORE=${config.CATALOG_STORE}` : undefined,
    config.CATALOG_SEARCH !== 'sqlite' ? `CATALOG_SEARCH=${config.CATALOG_SEARCH}` : undefined,
  ].filter((x) => x !== undefined)
  if (other.length > 0) {
    throw new InvalidInputError(
      `catalog ${command} works on the embedded SQLite store and search index only; this configuration uses ${other.join(' and ')} (back those up with their own tools)`,
    )
  }
}

/**
 * The processes (other than this one) that have a catalog file of `dataDir` open: on Linux
 * read from `/proc/<pid>/fd`, elsewhere asked of `lsof`. A server killed with -9 holds
 * nothing, so nothing stale can block a restore. Throws when neither way is available.
 */
export function processesUsing(dataDir: string): number[] {
  const targets = new Set<string>()
  for (const name of [DATA_FILES.store, DATA_FILES.search]) {
    for (const suffix of ['', ...SQLITE_SIDE_FILES]) {
      const file = join(dataDir, name + suffix)
      if (existsSync(file)) targets.add(realpathSync(file))
    }
  }
  if (targets.size === 0) return []
  if (existsSync('/proc/self/fd')) return fromProc(targets)
  const lsof = spawnSync('lsof', ['-t', ...targets], { encoding: 'utf8' })
  if (lsof.error) {
    throw new Error(
      'cannot tell whether a catalog has the data dir open (no /proc and no lsof); stop it and retry',
    )
  }
  return lsof.stdout
    .split('\n')
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0 && pid !== process.pid)
}

function fromProc(targets: ReadonlySet<string>): number[] {
  const out: number[] = []
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry)
    if (!Number.isInteger(pid) || pid === process.pid) continue
    let fds: string[]
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue // gone, or another user's process
    }
    for (const fd of fds) {
      let target: string
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`)
      } catch {
        continue
      }
      if (targets.has(target)) {
        out.push(pid)
        break
      }
    }
  }
  return out
}
