export { SqliteMetadataStore, type SqliteStoreOptions } from './sqlite-store.js'
