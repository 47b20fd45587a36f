import type { Registry } from '@catalog/core'
import { DocumentDeriver, SearchSchema } from '@catalog/search'
import { BulkPageBuilder, packBulkPage, WorkerSearchIndex, wholeDocument } from '@catalog/search-sqlite'
import type { SqliteBulkImport, TouchedLatestRow } from '@catalog/store-sqlite'
import { SqliteMetadataStore } from '@catalog/store-sqlite'

const LOG_PAGE = 1_000
/** Entities written in one transaction of the index. */
const ENTITY_PAGE = 5_000
/**
 * Entities read and built at a time, their page packed as bytes at once (see `PackedBulkPages`):
 * this thread's CPU for the pages went 0.8× and its collection time about a third.
 */
const SMALL_PAGE = 250
/** Pages handed to the index's thread and not yet written: one being written, one waiting. */
const IN_FLIGHT = 2

/** A page of entities handed to the index's thread. */
interface Flight {
  readonly urns: readonly string[]
  readonly written: Promise<unknown>
}

/**
 * Builds the search documents of the entities an import wrote, from their stored latest aspects
 * (the import writes no change-log rows). First the index catches up with the change log's tail
 * as the search service would, so no older log entry can later overwrite an imported value; then
 * each page of imported entities is indexed (an entity that existed before loses its old
 * document first) with the cursor at the log's head, and marked done in the store, so a killed
 * rebuild resumes where it stopped. A catalog started afterwards finds its cursor at the head:
 * it neither re-applies nor misses anything.
 *
 * Two threads work at once: this one reads the stored aspects of SMALL_PAGE entities at a time
 * (raw rows in URN order, one statement, through the import's own connection), builds their
 * documents and rows (`BulkPageBuilder`) and packs them as bytes, and hands ENTITY_PAGE entities'
 * pages to the index's thread, which writes them in one transaction while this one builds the
 * next; a build larger than the index builds the index's query-only indexes once at the end.
 * (A third thread building the pages measured 0.95× the time on 1.15× the CPU: the pages are
 * copied twice more.)
 */
export async function rebuildSearch(
  storeFile: string,
  searchFile: string,
  bulk: SqliteBulkImport,
  registry: Registry,
  onProgress: (done: number) => void,
): Promise<number> {
  // The index's thread starts while this one opens the store (which may build the store's
  // deferred indexes). A large page cache: a rebuild touches index pages all over the file. No
  // warm-up (a build drops the query caches), and no lower priority: no event loop waits here. A
  // large young generation: each page the thread receives is garbage once written (with the
  // server's 32 MB, the build took 1.15× the CPU).
  const opening = WorkerSearchIndex.open({
    file: searchFile,
    cacheMb: 256,
    warmup: false,
    lowerPriority: false,
    youngGenerationMb: 96,
  })
  opening.catch(() => undefined)
  let store: SqliteMetadataStore
  try {
    store = new SqliteMetadataStore({ file: storeFile, durability: 'normal' })
  } catch (err) {
    await (await opening.catch(() => undefined))?.close()
    throw err
  }
  const index = await opening.catch(async (err) => {
    await store.close()
    throw err
  })
  const schema = new SearchSchema(registry)
  const deriver = new DocumentDeriver(schema)
  const builder = new BulkPageBuilder(schema)
  let indexed = 0
  const flights: Flight[] = []
  /** Waits for the oldest page to be written, then marks its entities done. */
  const land = async () => {
    const flight = flights.shift()
    if (!flight) return
    await flight.written
    bulk.untouch(flight.urns)
    indexed += flight.urns.length
    onProgress(indexed)
  }
  try {
    const head = await store.head()
    let cursor = await index.cursor()
    while (cursor < head) {
      const entries = await store.changes(cursor, LOG_PAGE)
      const last = entries.at(-1)
      if (!last) break
      await index.apply(deriver.changes(entries), last.seq)
      cursor = last.seq
    }
    await index.beginBulk(bulk.touchedCount())
    // Pages follow each other by URN: entities in flight are still marked, and are read past.
    let after = ''
    for (;;) {
      // A write of up to ENTITY_PAGE entities, built in small pages packed as they are done.
      const urns: string[] = []
      const packed: Uint8Array[] = []
      while (urns.length < ENTITY_PAGE) {
        // The small page's entities with their values as stored text, in one read.
        const rows = bulk.touchedLatest(after, SMALL_PAGE)
        if (rows.length === 0) break
        for (let r = 0; r < rows.length; ) {
          const [urn, entityType] = rows[r] as TouchedLatestRow
          const aspects: Array<{ aspect: string; valueJson: string }> = []
          for (; r < rows.length && (rows[r] as TouchedLatestRow)[0] === urn; r++) {
            const [, , aspect, valueJson] = rows[r] as TouchedLatestRow
            if (aspect !== null && valueJson !== null) aspects.push({ aspect, valueJson })
          }
          // An entity's whole document replaces what the index has of it (an entity that
          // existed before, a page written before a kill).
          const doc = wholeDocument(deriver, { urn, entityType, aspects }, head)
          builder.add(urn, doc.entityType, doc.contributions)
          urns.push(urn)
        }
        after = urns.at(-1) as string
        packed.push(packBulkPage(builder.take()))
      }
      if (urns.length === 0) break
      const written = index.applyBulk(packed, head)
      // Awaited in order by `land`; a failure is seen there, not as an unhandled rejection.
      written.catch(() => undefined)
      flights.push({ urns, written })
      if (flights.length >= IN_FLIGHT) await land()
    }
    while (flights.length > 0) await land()
    await index.endBulk()
  } finally {
    // Pages still in flight after a failure are not marked done: a rerun indexes them again.
    await Promise.allSettled(flights.map((f) => f.written))
    await index.close()
    await store.close()
  }
  return indexed
}
