import { createHash } from 'node:crypto'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { checkDatabase } from '@catalog/store-sqlite'
import { CommandFailure } from './command-failure.js'
import { DATA_FILES } from './data-dir.js'

/** The only files a backup may hold (besides its manifest): nothing else is ever restored. */
const KNOWN_FILES: ReadonlySet<string> = new Set(Object.values(DATA_FILES))

/** Name of the manifest inside a backup directory. */
export const MANIFEST_FILE = 'manifest.json'

/** One file of a backup. */
export interface ManifestFile {
  readonly name: string
  readonly bytes: number
  readonly sha256: string
  /** Permission bits to restore (0o600 for the secret and the admin token). */
  readonly mode: number
  /** A SQLite database, checked with `PRAGMA integrity_check` before a restore. */
  readonly sqlite: boolean
}

/** What `catalog backup` writes beside the files: enough to verify and describe a backup. */
export interface Manifest {
  readonly format: 1
  readonly catalogVersion: string
  readonly createdAt: string
  /** The data dir the backup was taken from. */
  readonly source: string
  /** Newest change-log sequence number in the store copy. */
  readonly changeLogHead: number
  /** Change-log position the search index copy had applied (never ahead of the head). */
  readonly searchCursor: number
  readonly files: readonly ManifestFile[]
}

/** Size, SHA-256 and permission bits of a file, for the manifest. */
export function describeFile(dir: string, name: string, sqlite: boolean): ManifestFile {
  const file = join(dir, name)
  const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex')
  const stat = statSync(file)
  return { name, bytes: stat.size, sha256, mode: stat.mode & 0o777, sqlite }
}

/**
 * Reads a backup's manifest and checks every file it lists: present, same size and SHA-256,
 * and for databases a clean `PRAGMA integrity_check`. Throws a {@link CommandFailure} naming
 * each problem; nothing is changed.
 */
export function verifyBackup(dir: string): Manifest {
  const path = join(dir, MANIFEST_FILE)
  if (!existsSync(path)) throw new CommandFailure(`${dir} is not a catalog backup: no ${MANIFEST_FILE}`)
  let manifest: Manifest
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest
  } catch (err) {
    throw new CommandFailure(`${path} is not valid JSON: ${(err as Error).message}`)
  }
  if (manifest.format !== 1 || !Array.isArray(manifest.files)) {
    throw new CommandFailure(`${path} is not a catalog backup manifest (format 1)`)
  }
  const problems: string[] = []
  for (const f of manifest.files) {
    if (!KNOWN_FILES.has(f.name)) {
      problems.push(`${JSON.stringify(f.name)} is not a catalog file`)
      continue
    }
    if (!existsSync(join(dir, f.name))) {
      problems.push(`${f.name} is missing`)
      continue
    }
    const actual = describeFile(dir, f.name, f.sqlite)
    if (actual.bytes !== f.bytes || actual.sha256 !== f.sha256) {
      problems.push(`${f.name} does not match the manifest (size or SHA-256 differs)`)
      continue
    }
    if (f.sqlite) for (const p of checkDatabase(join(dir, f.name))) problems.push(`${f.name}: ${p}`)
  }
  if (problems.length > 0) {
    throw new CommandFailure(`the backup in ${dir} is damaged:\n  ${problems.join('\n  ')}`)
  }
  return manifest
}
