import type { ChangeLogEntry, Registry } from '@catalog/core'
import { DocumentDeriver, type IndexChange, SearchSchema } from '@catalog/search'
import { SqliteSearchIndex } from '@catalog/search-sqlite'
import type { SqliteBulkImport } from '@catalog/store-sqlite'
import { SqliteMetadataStore } from '@catalog/store-sqlite'

const LOG_PAGE = 1_000
const ENTITY_PAGE = 5_000

/**
 * Builds the search documents of the entities an import wrote, from their stored latest aspects
 * (the import writes no change-log rows). First the index catches up with the change log's tail
 * as the search service would, so no older log entry can later overwrite an imported value; then
 * each page of imported entities is indexed (an entity that existed before loses its old
 * document first) with the cursor at the log's head, and marked done in the store, so a killed
 * rebuild resumes where it stopped. A catalog started afterwards finds its cursor at the head:
 * it neither re-applies nor misses anything.
 */
export async function rebuildSearch(
  storeFile: string,
  searchFile: string,
  bulk: SqliteBulkImport,
  registry: Registry,
  onProgress: (done: number) => void,
): Promise<number> {
  const store = new SqliteMetadataStore({ file: storeFile, durability: 'normal' })
  const schema = new SearchSchema(registry)
  // A large page cache: a rebuild touches index pages all over the file.
  const index = new SqliteSearchIndex({ file: searchFile, schema, cacheMb: 256 })
  const deriver = new DocumentDeriver(schema)
  let indexed = 0
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
    for (;;) {
      const page = bulk.touched(ENTITY_PAGE)
      if (page.length === 0) break
      const latest = await store.latest(page.map((p) => p.urn))
      const changes: IndexChange[] = []
      for (const entity of page) {
        if (entity.existed) changes.push({ kind: 'removeEntity', urn: entity.urn })
        const entries: ChangeLogEntry[] = (latest.get(entity.urn) ?? []).map((a) => ({
          seq: head,
          urn: a.urn,
          entityType: entity.entityType,
          aspect: a.aspect,
          change: 'UPSERT',
          value: a.value,
          created: a.created,
        }))
        changes.push(...deriver.changes(entries))
      }
      await index.apply(changes, head)
      bulk.untouch(page.map((p) => p.urn))
      indexed += page.length
      onProgress(indexed)
    }
  } finally {
    await index.close()
    await store.close()
  }
  return indexed
}
