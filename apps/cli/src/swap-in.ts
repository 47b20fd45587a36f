import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { CommandFailure } from './command-failure.js'

/**
 * Replaces files of `dir` by renames only (one file system, no copying): every file of `old`
 * present in `dir` is moved into `aside`, then every file of `incoming` is moved from
 * `staging` into `dir`. On any failure the new files are removed and the old ones moved back,
 * so `dir` holds either all the old files or all the new ones; a {@link CommandFailure} says
 * so. On success the old files stay in `aside` for the caller to delete.
 */
export function swapIn(
  dir: string,
  staging: string,
  aside: string,
  old: readonly string[],
  incoming: readonly string[],
): void {
  rmSync(aside, { recursive: true, force: true })
  mkdirSync(aside, { mode: 0o700 })
  const movedAside: string[] = []
  const placed: string[] = []
  try {
    for (const name of old) {
      if (!existsSync(join(dir, name))) continue
      renameSync(join(dir, name), join(aside, name))
      movedAside.push(name)
    }
    for (const name of incoming) {
      renameSync(join(staging, name), join(dir, name))
      placed.push(name)
    }
  } catch (err) {
    for (const name of placed) rmSync(join(dir, name), { force: true })
    for (const name of movedAside) renameSync(join(aside, name), join(dir, name))
    rmSync(aside, { recursive: true, force: true })
    throw new CommandFailure(`restore failed, the old data is back in place: ${(err as Error).message}`, {
      cause: err,
    })
  }
}
