import type { ChangeLogEntry } from '@catalog/core'

/** The change log, read to invalidate caches (the store itself, or the metadata service over HTTP). */
export interface ChangeLogReader {
  head(): Promise<number>
  changes(after: number, limit: number): Promise<readonly ChangeLogEntry[]>
}

/** Past this many unread log entries, everything is dropped at once instead of read. */
const MAX_UNREAD = 2_000
const PAGE = 500

/**
 * Follows the change log for a cache: `refresh()` reads the entries written since the last
 * refresh and hands each to `apply`; on the first refresh, after a log that went back, or when
 * too many entries are unread, it calls `reset` instead. Refreshes run one at a time, each
 * starting after the previous one ended, so a caller never relies on a read of the log that
 * began before its request; callers arriving while one waits to start share it.
 */
export function changeLogFollower(
  log: ChangeLogReader,
  apply: (entry: ChangeLogEntry) => void,
  reset: () => void,
): () => Promise<void> {
  let seen: number | undefined
  let running: Promise<void> = Promise.resolve()
  let next: Promise<void> | undefined

  const catchUp = async (): Promise<void> => {
    const head = await log.head()
    if (seen === undefined || head < seen || head - seen > MAX_UNREAD) {
      reset()
      seen = head
      return
    }
    while (seen < head) {
      const entries = await log.changes(seen, PAGE)
      const last = entries.at(-1)
      if (!last) break
      for (const entry of entries) apply(entry)
      seen = last.seq
    }
  }

  return () => {
    if (next) return next
    const mine: Promise<void> = running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        if (next === mine) next = undefined
        return catchUp()
      })
    next = mine
    running = mine
    return mine
  }
}
