import {
  chmodSync,
  closeSync,
  copyFileSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { join, resolve } from 'node:path'
import type { Config } from '@catalog/config'
import { CommandFailure } from '../command-failure.js'
import { DATA_FILES, processesUsing, requireEmbedded, SQLITE_SIDE_FILES } from '../data-dir.js'
import { MANIFEST_FILE, type Manifest, verifyBackup } from '../manifest.js'
import { swapIn } from '../swap-in.js'

export interface RestoreOptions {
  /** Replace the catalog files of a data dir that has some. */
  readonly force: boolean
  /** Progress lines (stderr). */
  readonly say: (line: string) => void
}

const STAGING_PREFIX = '.restore-'
const ASIDE_PREFIX = '.pre-restore-'

/** Every file of the data dir a restore replaces: the databases with their WAL files, the secret, the admin token. */
function catalogFiles(): string[] {
  const dbs = [DATA_FILES.store, DATA_FILES.search].flatMap((n) => [
    n,
    ...SQLITE_SIDE_FILES.map((s) => n + s),
  ])
  return [...dbs, DATA_FILES.secret, DATA_FILES.adminToken]
}

/**
 * `catalog restore <dir>`: puts a backup in place as the data dir's catalog. In order:
 * verify the backup (manifest, sizes, SHA-256, `PRAGMA integrity_check`); refuse while any
 * process has the data dir's databases open, and refuse a data dir that has catalog files
 * unless `force`; copy the files into a staging dir inside the data dir and verify the copies;
 * move the old files (WAL and shared-memory files included: a stale WAL must never meet the
 * restored database) aside; rename the new ones in. A failure at any step puts the old
 * files back, so the data dir holds either the old catalog or the restored one.
 */
export function restoreDataDir(config: Config, from: string, options: RestoreOptions): Manifest {
  requireEmbedded(config, 'restore')
  const source = resolve(from)
  const manifest = verifyBackup(source)
  options.say(`backup verified: ${manifest.files.length} files from ${manifest.createdAt}`)
  const dataDir = config.CATALOG_DATA_DIR
  mkdirSync(dataDir, { recursive: true })
  refuseWhileOpen(dataDir)
  const present = readdirSync(dataDir).filter(
    (n) => !n.startsWith(STAGING_PREFIX) && !n.startsWith(ASIDE_PREFIX),
  )
  if (present.length > 0 && !options.force) {
    throw new CommandFailure(
      `${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', ...' : ''}); pass --force to replace its catalog`,
    )
  }
  const staging = join(dataDir, `${STAGING_PREFIX}${process.pid}`)
  const aside = join(dataDir, `${ASIDE_PREFIX}${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { mode: 0o700 })
  try {
    for (const f of manifest.files) {
      const to = join(staging, f.name)
      copyFileSync(join(source, f.name), to)
      chmodSync(to, f.mode)
      syncFile(to)
    }
    writeFileSync(join(staging, MANIFEST_FILE), JSON.stringify(manifest))
    verifyBackup(staging)
    options.say(`copied into ${staging} and verified`)
    refuseWhileOpen(dataDir)
    swapIn(
      dataDir,
      staging,
      aside,
      catalogFiles(),
      manifest.files.map((f) => f.name),
    )
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
  rmSync(aside, { recursive: true, force: true })
  syncFile(dataDir)
  return manifest
}

function refuseWhileOpen(dataDir: string): void {
  const pids = processesUsing(dataDir)
  if (pids.length > 0) {
    throw new CommandFailure(
      `a catalog is running on ${dataDir} (process ${pids.join(', ')} has its databases open); stop it before restoring`,
    )
  }
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** The one-line summary `catalog restore` prints on stdout. */
export function describeRestore(dataDir: string, m: Manifest, ms: number): string {
  return `restored the backup of ${m.createdAt} (change log at ${m.changeLogHead}) into ${dataDir}: ${m.files.length} files, ${ms} ms`
}
