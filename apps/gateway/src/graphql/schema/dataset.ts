/** Dataset and schema types of DataHub's `entity.graphql` (subset). */
export const DATASET_SDL = /* GraphQL */ `
type Dataset implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform!
  origin: FabricType! @deprecated(reason: "Use properties.origin")
  properties: DatasetProperties
  editableProperties: DatasetEditableProperties
  ownership: Ownership
  deprecation: Deprecation
  institutionalMemory: InstitutionalMemory
  "The schema; version 0 (the default) is the latest"
  schemaMetadata(version: Long): SchemaMetadata
  editableSchemaMetadata: EditableSchemaMetadata
  status: Status
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  subTypes: SubTypes
  browsePaths: [BrowsePath!]
  exists: Boolean
  description: String @deprecated(reason: "Use properties.description")
  globalTags: GlobalTags @deprecated(reason: "Use tags")
}

type DatasetProperties {
  name: String!
  qualifiedName: String
  origin: FabricType!
  description: String
  customProperties: [CustomPropertiesEntry!]
  externalUrl: String
  created: Long
  createdActor: String
  lastModified: AuditStamp!
}

type DatasetEditableProperties {
  description: String
  name: String
}

type SchemaMetadata {
  aspectVersion: Long
  datasetUrn: String
  name: String!
  platformUrn: String!
  version: Long!
  cluster: String
  hash: String!
  platformSchema: PlatformSchema
  fields: [SchemaField!]!
  primaryKeys: [String!]
  createdAt: Long
}

union PlatformSchema = TableSchema | KeyValueSchema

type TableSchema {
  schema: String!
}

type KeyValueSchema {
  keySchema: String!
  valueSchema: String!
}

enum SchemaFieldDataType {
  BOOLEAN
  FIXED
  STRING
  BYTES
  NUMBER
  DATE
  TIME
  ENUM
  NULL
  MAP
  ARRAY
  UNION
  STRUCT
}

type SchemaField {
  fieldPath: String!
  jsonPath: String
  label: String
  nullable: Boolean!
  description: String
  type: SchemaFieldDataType!
  nativeDataType: String
  recursive: Boolean!
  globalTags: GlobalTags @deprecated(reason: "Use tags")
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  isPartOfKey: Boolean
  isPartitioningKey: Boolean
  jsonProps: String
}

type EditableSchemaMetadata {
  editableSchemaFieldInfo: [EditableSchemaFieldInfo!]!
}

type EditableSchemaFieldInfo {
  fieldPath: String!
  description: String
  globalTags: GlobalTags @deprecated(reason: "Use tags")
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
}
`
