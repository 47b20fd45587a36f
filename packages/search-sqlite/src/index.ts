export { SqliteSearchIndex, type SqliteSearchOptions } from './sqlite-search-index.js'
