export { type MetadataServiceOptions, metadataService } from './app.js'
export type { AfterWrite } from './services/ingest-service.js'
export { openStore } from './store-factory.js'
