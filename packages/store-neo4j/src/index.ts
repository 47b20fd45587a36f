export { Neo4jMetadataStore, type Neo4jStoreOptions } from './neo4j-store.js'
