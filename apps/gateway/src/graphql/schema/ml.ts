/** ML feature, primary key, feature table, model and model group types (subset). */
export const ML_SDL = /* GraphQL */ `
enum MLFeatureDataType {
  USELESS
  NOMINAL
  ORDINAL
  BINARY
  COUNT
  TIME
  INTERVAL
  IMAGE
  VIDEO
  AUDIO
  TEXT
  MAP
  SEQUENCE
  SET
  CONTINUOUS
  BYTE
  UNKNOWN
}

type MLFeature implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  featureNamespace: String!
  description: String
  dataType: MLFeatureDataType
  ownership: Ownership
  featureProperties: MLFeatureProperties @deprecated(reason: "Use properties")
  properties: MLFeatureProperties
  institutionalMemory: InstitutionalMemory
  status: Status
  deprecation: Deprecation
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  editableProperties: MLFeatureEditableProperties
  exists: Boolean
}

type MLFeatureProperties {
  description: String
  dataType: MLFeatureDataType
  version: VersionTag
  sources: [Dataset]
  customProperties: [CustomPropertiesEntry!]
}

type MLFeatureEditableProperties {
  description: String
}

type MLPrimaryKey implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  featureNamespace: String!
  description: String
  dataType: MLFeatureDataType
  properties: MLPrimaryKeyProperties
  primaryKeyProperties: MLPrimaryKeyProperties @deprecated(reason: "Use properties")
  ownership: Ownership
  institutionalMemory: InstitutionalMemory
  status: Status
  deprecation: Deprecation
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  editableProperties: MLPrimaryKeyEditableProperties
  exists: Boolean
}

type MLPrimaryKeyProperties {
  description: String
  dataType: MLFeatureDataType
  version: VersionTag
  sources: [Dataset]
  customProperties: [CustomPropertiesEntry!]
}

type MLPrimaryKeyEditableProperties {
  description: String
}

type MLFeatureTable implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform!
  description: String
  ownership: Ownership
  properties: MLFeatureTableProperties
  featureTableProperties: MLFeatureTableProperties @deprecated(reason: "Use properties")
  institutionalMemory: InstitutionalMemory
  status: Status
  deprecation: Deprecation
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  editableProperties: MLFeatureTableEditableProperties
  exists: Boolean
}

type MLFeatureTableProperties {
  description: String
  mlFeatures: [MLFeature]
  mlPrimaryKeys: [MLPrimaryKey]
  customProperties: [CustomPropertiesEntry!]
}

type MLFeatureTableEditableProperties {
  description: String
}

type MLModel implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform!
  origin: FabricType!
  description: String
  ownership: Ownership
  properties: MLModelProperties
  institutionalMemory: InstitutionalMemory
  status: Status
  deprecation: Deprecation
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  editableProperties: MLModelEditableProperties
  exists: Boolean
  globalTags: GlobalTags @deprecated(reason: "Use tags")
}

type MLModelProperties {
  name: String
  description: String
  date: Long @deprecated(reason: "Use created")
  created: AuditStamp
  lastModified: AuditStamp
  version: String
  type: String
  hyperParams: [MLHyperParam]
  trainingMetrics: [MLMetric]
  onlineMetrics: [MLMetric]
  mlFeatures: [String!]
  tags: [String!]
  groups: [MLModelGroup]
  customProperties: [CustomPropertiesEntry!]
  externalUrl: String
}

type MLHyperParam {
  name: String
  description: String
  value: String
  createdAt: Long
}

type MLMetric {
  name: String
  description: String
  value: String
  createdAt: Long
}

type MLModelEditableProperties {
  description: String
}

type MLModelGroup implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  platform: DataPlatform!
  origin: FabricType!
  description: String
  properties: MLModelGroupProperties
  ownership: Ownership
  status: Status
  deprecation: Deprecation
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  editableProperties: MLModelGroupEditableProperties
  exists: Boolean
}

type MLModelGroupProperties {
  name: String
  description: String
  createdAt: Long @deprecated(reason: "Use created")
  created: AuditStamp
  lastModified: AuditStamp
  version: VersionTag
  customProperties: [CustomPropertiesEntry!]
  externalUrl: String
}

type MLModelGroupEditableProperties {
  description: String
}
`
