import { type ChangeLogEntry, UnavailableError } from '@catalog/core'

/** One page of the metadata change log and the log's newest position. */
export interface ChangePage {
  readonly head: number
  readonly entries: readonly ChangeLogEntry[]
}

/** Where the search service reads the change log from. */
export interface ChangeSource {
  /** Entries with `seq > after`, in order, at most `limit`, and the head position. */
  changes(after: number, limit: number): Promise<ChangePage>
  /**
   * Optional: the same entries as JSON text (an array of entries, or a page `{ entries }`),
   * never parsed on this thread: an index that derives on its own thread takes them as they are.
   * An entry may leave out what deriving documents never reads (`created`, `systemMetadata`),
   * and a page may end before `limit` entries where the log goes on (the store bounds a page's
   * characters): only an empty page says there is nothing after `after`.
   */
  changesJson?(after: number, limit: number): Promise<string>
  /**
   * Optional, one process only: the file of the embedded metadata store holding this log. An
   * index that can read the log from it on its own thread (the embedded index's worker, with
   * its own read-only connection) is given the file instead of pages, so the pages are never
   * built on this thread nor copied between threads.
   */
  readonly storeFile?: string
}

/** The part of the metadata store a change source needs (structural: no store dependency). */
export interface ChangeLogReader {
  changes(after: number, limit: number): Promise<ChangeLogEntry[]>
  head(): Promise<number>
  /**
   * Optional: {@link changes} as the JSON text of the entries, without parsing their values; an
   * entry may leave out `created` and `systemMetadata` (the SQLite store's feed does).
   */
  changesJson?(after: number, limit: number): Promise<string>
}

/**
 * Reads the change log straight from the metadata store (one process). `storeFile`: the
 * embedded store's SQLite file, when the store is the embedded one (see {@link ChangeSource.storeFile}).
 */
export function storeChangeSource(
  store: ChangeLogReader,
  options: { readonly storeFile?: string } = {},
): ChangeSource {
  const asJson = store.changesJson?.bind(store)
  return {
    ...(options.storeFile ? { storeFile: options.storeFile } : {}),
    async changes(after, limit) {
      const entries = await store.changes(after, limit)
      const last = entries.at(-1)?.seq ?? after
      return { head: Math.max(last, entries.length < limit ? last : await store.head()), entries }
    },
    ...(asJson ? { changesJson: (after: number, limit: number) => asJson(after, limit) } : {}),
  }
}

/**
 * Reads the change log from the metadata service's `GET /internal/changes` (split mode). A
 * metadata service that does not answer is an {@link UnavailableError}.
 */
export function httpChangeSource(
  metadataUrl: string,
  options: { readonly timeoutMs?: number; readonly authorization?: () => string | undefined } = {},
): ChangeSource {
  const base = metadataUrl.replace(/\/+$/, '')
  const timeoutMs = options.timeoutMs ?? 10_000
  const fetchPage = async (after: number, limit: number): Promise<Response> => {
    let res: Response
    const authorization = options.authorization?.()
    try {
      res = await fetch(`${base}/internal/changes?after=${after}&limit=${limit}`, {
        signal: AbortSignal.timeout(timeoutMs),
        ...(authorization ? { headers: { authorization } } : {}),
      })
    } catch (err) {
      throw new UnavailableError(`the metadata service at ${base} did not answer`, { cause: err })
    }
    if (!res.ok) {
      await res.arrayBuffer()
      throw new UnavailableError(
        `the metadata service at ${base} answered ${res.status} to /internal/changes`,
      )
    }
    return res
  }
  return {
    changes: async (after, limit) => (await (await fetchPage(after, limit)).json()) as ChangePage,
    // The page's text as it came: the search worker parses it, not this thread.
    changesJson: async (after, limit) => (await fetchPage(after, limit)).text(),
  }
}
