import type { ChangeLogEntry } from '@catalog/core'
import type { DocumentDeriver, LogApplyResult, SearchIndex } from '@catalog/search'
import type { StoreChangeLog } from './store-change-log.js'

/**
 * Applies change-log entries given as JSON text (a `ChangeLogEntry[]` or a page `{ entries }`):
 * parses them, derives their index changes and applies them with the last entry's position as
 * the cursor. Runs on the search worker's thread, so the parse and the derivation of a huge
 * aspect cost the server's event loop nothing.
 */
export async function applyLogText(
  index: SearchIndex,
  deriver: DocumentDeriver,
  entriesJson: string,
): Promise<LogApplyResult> {
  const parsed = JSON.parse(entriesJson) as unknown
  const entries = Array.isArray(parsed)
    ? (parsed as ChangeLogEntry[])
    : (parsed as { entries?: unknown } | null)?.entries
  if (!Array.isArray(entries)) throw new TypeError('applyLog takes a JSON array of change-log entries')
  return applyEntries(index, deriver, entries as ChangeLogEntry[])
}

/**
 * Reads the next page of the store's change log after the index's own cursor (at most `limit`
 * entries) and applies it, on the search worker's thread: nothing of the page crosses threads.
 */
export async function applyStoreLog(
  index: SearchIndex,
  deriver: DocumentDeriver,
  log: StoreChangeLog,
  limit: number,
): Promise<LogApplyResult> {
  return applyEntries(index, deriver, log.read(await index.cursor(), limit))
}

async function applyEntries(
  index: SearchIndex,
  deriver: DocumentDeriver,
  entries: readonly ChangeLogEntry[],
): Promise<LogApplyResult> {
  const last = entries.at(-1)
  if (!last) return { entries: 0, documentsChanged: 0, cursor: await index.cursor() }
  const result = await index.apply(deriver.changes(entries), last.seq)
  return { ...result, entries: entries.length }
}
