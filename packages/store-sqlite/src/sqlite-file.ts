import Database from 'better-sqlite3'

/** Progress of an online backup, in database pages. */
export interface BackupProgress {
  readonly totalPages: number
  readonly remainingPages: number
}

/**
 * Copies a live SQLite database (the store's or the search index's file) to `dest` with
 * SQLite's online backup API: the copy is one consistent snapshot that includes what is
 * still in the WAL, taken while other processes keep reading and writing. After the first
 * step the rest is copied in one step (one read transaction: a busy writer cannot make it
 * restart forever). The copy is switched to rollback-journal mode, so it is a single
 * self-contained file. Resolves with the number of pages copied.
 */
export async function backupDatabase(
  source: string,
  dest: string,
  onProgress?: (p: BackupProgress) => void,
): Promise<number> {
  const db = new Database(source, { readonly: true, fileMustExist: true })
  try {
    db.pragma('busy_timeout = 5000')
    const result = await db.backup(dest, {
      progress: (p) => {
        onProgress?.(p)
        return Math.max(100, p.remainingPages)
      },
    })
    const copy = new Database(dest, { fileMustExist: true })
    try {
      copy.pragma('journal_mode = DELETE')
    } finally {
      copy.close()
    }
    onProgress?.({ totalPages: result.totalPages, remainingPages: 0 })
    return result.totalPages
  } finally {
    db.close()
  }
}

/**
 * SQLite's `PRAGMA integrity_check` on a database file, opened read-only (safe while a server
 * writes it: the check reads one snapshot). Resolves with the problems found; empty when the
 * file is sound. A file that cannot be opened as a database is one problem.
 */
export function checkDatabase(file: string, maxProblems = 20): string[] {
  let db: Database.Database | undefined
  try {
    db = new Database(file, { readonly: true, fileMustExist: true })
    db.pragma('busy_timeout = 5000')
    const rows = db.pragma(`integrity_check(${Math.max(1, Math.floor(maxProblems))})`) as Array<{
      integrity_check: string
    }>
    const problems = rows.map((r) => r.integrity_check)
    return problems.length === 1 && problems[0] === 'ok' ? [] : problems
  } catch (err) {
    return [`cannot read ${file} as a SQLite database: ${(err as Error).message}`]
  } finally {
    db?.close()
  }
}
