import { closeSync, mkdirSync, openSync } from 'node:fs'
import { dirname } from 'node:path'
import Database from 'better-sqlite3'
import { BASE_DDL } from './ddl.js'

/** The page size of a new index file. */
const PAGE_BYTES = 8192

/**
 * Opens (or creates) an index file with the index's settings and base tables: WAL, 8 KB pages, incremental vacuum, synchronous
 * NORMAL (nothing here is the source of truth), a page cache of `cacheBytes`. A new data dir is
 * created 0700 and a new file 0600 (SQLite gives its -wal and -shm files the file's mode).
 */
export function openIndexFile(file: string, cacheBytes: number): Database.Database {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    createPrivateFile(file)
  }
  const db = new Database(file)
  try {
    if (db.pragma('page_count', { simple: true }) === 0) {
      // A new file only (setting these on an existing one would write its header, which other
      // connections see as a change): rows of ~1 KB (a dataset's `docs` row) fill 8 KB pages
      // better, 1,282 -> 1,167 B per dataset at 100k; and pages freed (a bulk build's staging
      // tables, see `bulkMode`) can be given back to the file system by `incremental_vacuum`.
      db.pragma(`page_size = ${PAGE_BYTES}`)
      db.pragma('auto_vacuum = INCREMENTAL')
    }
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('busy_timeout = 5000')
    db.pragma('temp_store = MEMORY')
    // Fewer, larger checkpoints: a catch-up over a long log writes hot pages less often.
    db.pragma('wal_autocheckpoint = 10000')
    db.pragma('journal_size_limit = 67108864')
    db.pragma(`cache_size = -${Math.round(cacheBytes / 1024)}`)
    db.exec(BASE_DDL)
  } catch (err) {
    db.close()
    throw err
  }
  return db
}

/** Creates `file` empty with mode 0600 unless it exists (SQLite takes an empty file as a new database). */
function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, 'wx', 0o600))
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
}
