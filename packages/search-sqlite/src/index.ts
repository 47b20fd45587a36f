export { type BulkEntity, wholeDocument } from './bulk-entity.js'
export { type BulkPage, BulkPageBuilder, type PackedBulkPages, packBulkPage } from './bulk-page.js'
export { type IndexedDocumentRow, SqliteIndexReader } from './sqlite-index-reader.js'
export { SqliteSearchIndex, type SqliteSearchOptions } from './sqlite-search-index.js'
export {
  DEFAULT_QUERY_BUDGET_MS,
  WorkerSearchIndex,
  type WorkerSearchOptions,
} from './worker/worker-search-index.js'
