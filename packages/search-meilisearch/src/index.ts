export { translateError } from './errors.js'
export { deriveSettings } from './index-settings.js'
export {
  MeilisearchSearchIndex,
  type MeilisearchSearchOptions,
  type WarnLogger,
} from './meilisearch-search-index.js'
