import type { ChangeLogEntry } from '@catalog/core'
import type { AspectStore } from '@catalog/store'

/** The change log as the read caches follow it. */
export type ChangeLogReader = Pick<AspectStore, 'head' | 'changes'>

/** Past this many unread log entries, everything is dropped at once instead of read. */
const MAX_UNREAD = 2_000
const PAGE = 500

/**
 * Follows the change log for the read caches, one read of its head per turn of the event loop
 * however many requests ask: `refresh()` resolves once the entries written before the call are
 * handed to `apply` (or `reset` is called, on the first refresh, a log that went back, or too
 * many unread entries). The callers of one turn wait for the check phase right after it, where
 * one catch-up reads the head for all of them: that read starts after each of them asked, so
 * every write acknowledged before any of those requests was sent is seen. Catch-ups run one at
 * a time, in order.
 */
export function batchedLogFollower(
  log: ChangeLogReader,
  apply: (entry: ChangeLogEntry) => void,
  reset: () => void,
): () => Promise<void> {
  let seen: number | undefined
  let waiting: Array<{ resolve: () => void; reject: (err: unknown) => void }> = []
  let scheduled = false
  let previous: Promise<void> = Promise.resolve()

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

  const start = () => {
    scheduled = false
    const callers = waiting
    waiting = []
    previous = previous.then(
      () =>
        catchUp().then(
          () => {
            for (const c of callers) c.resolve()
          },
          (err: unknown) => {
            // A failed read may have been cut short: the next one starts from a clean slate.
            seen = undefined
            for (const c of callers) c.reject(err)
          },
        ),
      () => undefined,
    )
  }

  return () =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ resolve, reject })
      if (!scheduled) {
        scheduled = true
        setImmediate(start)
      }
    })
}
