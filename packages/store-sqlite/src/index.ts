export {
  type BulkAspectRow,
  type BulkProgress,
  SqliteBulkImport,
  type TouchedLatestRow,
} from './sqlite-bulk-import.js'
export { type BackupProgress, backupDatabase, checkDatabase } from './sqlite-file.js'
export { SqliteMetadataStore, type SqliteStoreOptions } from './sqlite-store.js'
export {
  type LatestAspectRow,
  SqliteStoreReader,
  type StoredEdge,
  type StoreSnapshot,
} from './sqlite-store-reader.js'
