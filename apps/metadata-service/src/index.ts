export { type MetadataServiceOptions, metadataService } from './app.js'
export { type AuthServiceRoutesOptions, authServiceRoutes } from './routes/auth-service.js'
export { IngestBodySchema, ProposalSchema } from './schemas/ingest.js'
export { authServiceOptions } from './services/auth-service-options.js'
export {
  createMetadataServices,
  type MetadataServices,
  type MetadataServicesOptions,
} from './services/index.js'
export { type AfterWrite, IngestService } from './services/ingest-service.js'
export { lineageLimitsFrom } from './services/lineage-service.js'
export type { EntityResponse, ReadService } from './services/read-service.js'
export {
  hasSchemaFieldText,
  lookUpSchemaField,
  type SchemaFieldLookup,
} from './services/schema-field-lookup.js'
export { searchNotifier } from './services/search-notifier.js'
export { embeddedStoreFile, openStore } from './store-factory.js'
