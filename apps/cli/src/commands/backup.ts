import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import type { Config } from '@catalog/config'
import { SqliteIndexReader } from '@catalog/search-sqlite'
import { backupDatabase, SqliteStoreReader } from '@catalog/store-sqlite'
import { CommandFailure } from '../command-failure.js'
import { DATA_FILES, requireEmbedded } from '../data-dir.js'
import { describeFile, MANIFEST_FILE, type Manifest, type ManifestFile } from '../manifest.js'

export interface BackupOptions {
  /** The catalog's version, recorded in the manifest. */
  readonly version: string
  /** Progress lines (stderr). */
  readonly say: (line: string) => void
}

/**
 * `catalog backup <dir>`: a consistent copy of the embedded catalog's data dir, safe while a
 * server runs and writes. The search index is copied first and the store second, each with
 * SQLite's online backup API, so the copied index is never ahead of the copied change log (a
 * catalog started on the copy applies the log's tail, as after any restart). The signing
 * secret and admin token keep their 0600 mode. Everything is written to `<dir>.partial-<pid>`
 * and renamed to `<dir>` at the end: `<dir>` is either a complete backup or absent.
 */
export async function backupDataDir(config: Config, dest: string, options: BackupOptions): Promise<Manifest> {
  requireEmbedded(config, 'backup')
  const dataDir = config.CATALOG_DATA_DIR
  const target = resolve(dest)
  if (!existsSync(join(dataDir, DATA_FILES.store))) {
    throw new CommandFailure(`no catalog data in ${dataDir} (no ${DATA_FILES.store}); set CATALOG_DATA_DIR`)
  }
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0)) {
    throw new CommandFailure(`${target} exists and is not an empty directory; pick a new backup directory`)
  }
  const staging = join(dirname(target), `.${basename(target)}.partial-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true, mode: 0o700 })
  try {
    const files: ManifestFile[] = []
    // Index first, store second: the copied cursor is at or behind the copied log head.
    for (const name of [DATA_FILES.search, DATA_FILES.store]) {
      if (!existsSync(join(dataDir, name))) continue
      let shown = -1
      await backupDatabase(join(dataDir, name), join(staging, name), (p) => {
        const pct =
          p.totalPages === 0 ? 100 : Math.floor(((p.totalPages - p.remainingPages) * 100) / p.totalPages)
        if (pct !== shown) options.say(`${name}: ${pct}% of ${p.totalPages} pages`)
        shown = pct
      })
      chmodSync(join(staging, name), statSync(join(dataDir, name)).mode & 0o777)
      files.push(describeFile(staging, name, true))
    }
    for (const name of [DATA_FILES.secret, DATA_FILES.adminToken]) {
      const from = join(dataDir, name)
      if (!existsSync(from)) continue
      copyFileSync(from, join(staging, name))
      chmodSync(join(staging, name), statSync(from).mode & 0o777)
      files.push(describeFile(staging, name, false))
      options.say(`${name}: copied`)
    }
    const manifest: Manifest = {
      format: 1,
      catalogVersion: options.version,
      createdAt: new Date().toISOString(),
      source: dataDir,
      ...positions(staging),
      files,
    }
    writeFileSync(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
    if (existsSync(target)) rmSync(target, { recursive: true })
    renameSync(staging, target)
    return manifest
  } catch (err) {
    rmSync(staging, { recursive: true, force: true })
    throw err
  }
}

/** The change-log head of the store copy and the cursor of the index copy. */
function positions(dir: string): { changeLogHead: number; searchCursor: number } {
  const store = new SqliteStoreReader(join(dir, DATA_FILES.store))
  let changeLogHead: number
  try {
    changeLogHead = store.snapshot((s) => s.head())
  } finally {
    store.close()
  }
  if (!existsSync(join(dir, DATA_FILES.search))) return { changeLogHead, searchCursor: 0 }
  const index = new SqliteIndexReader(join(dir, DATA_FILES.search))
  try {
    return { changeLogHead, searchCursor: index.cursor() }
  } finally {
    index.close()
  }
}

/** The one-line summary `catalog backup` prints on stdout. */
export function describeBackup(dir: string, m: Manifest, ms: number): string {
  const bytes = m.files.reduce((n, f) => n + f.bytes, 0)
  return `backed up ${m.source} to ${resolve(dir)}: ${m.files.length} files, ${(bytes / 1048576).toFixed(1)} MB, change log at ${m.changeLogHead}, search index at ${m.searchCursor}, ${ms} ms`
}
