import { closeSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import { UnavailableError } from '@catalog/core'
import Database from 'better-sqlite3'
import { openStoreSchema } from './sqlite-schema.js'

/** What {@link openStoreFile} needs to know. */
interface OpenStoreFileOptions {
  /** Database file path, or `:memory:`. */
  readonly file: string
  /** `normal` never syncs in the commit; `full` does where WAL is not possible. */
  readonly durability?: 'full' | 'normal'
  /** Told, before a file of an older layout is migrated at open, what the migration will take. */
  readonly onMigrate?: (note: string) => void
}

/** An open store connection, and whether it is in WAL mode. */
interface OpenStoreFile {
  readonly db: Database.Database
  readonly wal: boolean
}

/**
 * Opens (creating owner-only where new) the store's SQLite file in WAL mode, with the
 * connection settings the store relies on, and brings its schema up to date.
 * Fails with an `UnavailableError` naming the file.
 */
export function openStoreFile(options: OpenStoreFileOptions): OpenStoreFile {
  if (options.file !== ':memory:') {
    // Owner-only: a new data dir is 0700 and a new database file 0600 (SQLite gives its
    // -wal and -shm files the mode of the database file).
    mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 })
    createPrivateFile(options.file)
  }
  try {
    const db = new Database(options.file)
    const mode = db.pragma('journal_mode = WAL', { simple: true })
    const wal = mode === 'wal'
    // WAL + NORMAL: a commit writes the WAL without syncing it; with `full` durability the
    // WAL is then fsynced off the event loop before the group is acknowledged (see
    // SqliteGroupCommit). Where WAL is not possible (some network filesystems), `full` syncs in
    // the commit itself.
    db.pragma(`synchronous = ${wal || options.durability === 'normal' ? 'NORMAL' : 'FULL'}`)
    db.pragma('busy_timeout = 5000')
    // 16 MB of page cache. 4 MB was measured at a million datasets (2026-11-26): RSS after the
    // scale benchmark's queries within the runs' spread (-11 MB in one set of 5 pairs, none in
    // another), but `entitiesV2` took 8-10 % more CPU per cold read in both sets.
    db.pragma('cache_size = -16000')
    openStoreSchema(db, options.onMigrate)
    return { db, wal }
  } catch (err) {
    throw new UnavailableError(
      `cannot open the metadata store at ${options.file}: ${(err as Error).message}`,
      {
        cause: err,
      },
    )
  }
}

/** Creates `file` empty with mode 0600 unless it exists (SQLite takes an empty file as a new database). */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
}
