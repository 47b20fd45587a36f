import { statSync } from 'node:fs'

/** Bytes a SQLite file takes on disk with its WAL and shared-memory files (0 for `:memory:`). */
export function fileBytes(file: string): number {
  if (file === ':memory:') return 0
  let bytes = 0
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      bytes += statSync(file + suffix).size
    } catch {
      // the file does not exist (no WAL yet)
    }
  }
  return bytes
}
