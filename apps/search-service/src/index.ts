export { SearchSchema } from '@catalog/search'
export { type SearchServiceOptions, searchService } from './app.js'
export { openSearchIndex } from './index-factory.js'
export {
  type ChangeLogReader,
  type ChangePage,
  type ChangeSource,
  httpChangeSource,
  storeChangeSource,
} from './services/change-source.js'
export { createSearchServices, type SearchServices } from './services/index.js'
export { IndexSync, type SyncStats } from './services/index-sync.js'
export type { SearchService } from './services/search-service.js'
