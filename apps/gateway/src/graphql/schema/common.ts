/** Shared scalars, enums and records of DataHub's `entity.graphql`, as a faithful subset. */
export const COMMON_SDL = /* GraphQL */ `
"Long: a 64-bit integer (milliseconds since epoch, versions)."
scalar Long

"A DataHub metadata entity, addressed by its URN."
interface Entity {
  "The primary key of the entity"
  urn: String!
  "The standard Entity Type"
  type: EntityType!
}

"A top-level metadata entity type."
enum EntityType {
  DOMAIN
  DATASET
  CORP_USER
  CORP_GROUP
  DATA_PLATFORM
  DASHBOARD
  NOTEBOOK
  CHART
  DATA_FLOW
  DATA_JOB
  TAG
  GLOSSARY_TERM
  GLOSSARY_NODE
  CONTAINER
  MLMODEL
  MLMODEL_GROUP
  MLFEATURE_TABLE
  MLFEATURE
  MLPRIMARY_KEY
  INGESTION_SOURCE
  EXECUTION_REQUEST
  ASSERTION
  DATA_PROCESS_INSTANCE
  DATA_PLATFORM_INSTANCE
  ACCESS_TOKEN
  TEST
  DATAHUB_POLICY
  DATAHUB_ROLE
  POST
  SCHEMA_FIELD
  DATAHUB_VIEW
  QUERY
  DATA_PRODUCT
  CUSTOM_OWNERSHIP_TYPE
  INCIDENT
  ROLE
  STRUCTURED_PROPERTY
  FORM
  ER_MODEL_RELATIONSHIP
  BUSINESS_ATTRIBUTE
  OTHER
}

"An environment identifier for a data asset."
enum FabricType {
  DEV
  TEST
  QA
  UAT
  EI
  PRE
  STG
  NON_PROD
  PROD
  CORP
  RVW
  SANDBOX
  PRD
  TST
  SIT
  SBX
  CERT
}

"A part of an entity that metadata can be attached to."
enum SubResourceType {
  "A field of a dataset schema"
  DATASET_FIELD
}

"The type of an ownership association."
enum OwnershipType {
  TECHNICAL_OWNER
  BUSINESS_OWNER
  DATA_STEWARD
  NONE
  CUSTOM
  DATAOWNER @deprecated
  DEVELOPER @deprecated
  DELEGATE @deprecated
  PRODUCER @deprecated
  STAKEHOLDER @deprecated
  CONSUMER @deprecated
}

"Who changed something, and when."
type AuditStamp {
  time: Long!
  actor: String
}

type CustomPropertiesEntry {
  key: String!
  value: String
  associatedUrn: String!
}

type Status {
  removed: Boolean!
}

type Deprecation {
  deprecated: Boolean!
  decommissionTime: Long
  note: String
  actor: String
  replacement: Entity
}

type GlobalTags {
  tags: [TagAssociation!]
}

type TagAssociation {
  tag: Tag!
  associatedUrn: String!
  context: String
}

type GlossaryTerms {
  terms: [GlossaryTermAssociation!]
}

type GlossaryTermAssociation {
  term: GlossaryTerm!
  actor: CorpUser
  context: String
  associatedUrn: String!
}

"An owner: a user or a group."
union OwnerType = CorpUser | CorpGroup

type Owner {
  owner: OwnerType!
  type: OwnershipType @deprecated(reason: "Use ownershipType")
  ownershipType: OwnershipTypeEntity
  associatedUrn: String!
}

type Ownership {
  owners: [Owner!]
  lastModified: AuditStamp!
}

"A custom (or system) ownership type."
type OwnershipTypeEntity implements Entity {
  urn: String!
  type: EntityType!
  info: OwnershipTypeInfo
  status: Status
}

type OwnershipTypeInfo {
  name: String!
  description: String
  created: AuditStamp
  lastModified: AuditStamp
}

type InstitutionalMemory {
  elements: [InstitutionalMemoryMetadata!]!
}

type InstitutionalMemoryMetadata {
  url: String!
  label: String!
  author: CorpUser!
  description: String! @deprecated(reason: "Use label")
  created: AuditStamp!
  associatedUrn: String!
}

type BrowsePath {
  path: [String!]!
}

type SubTypes {
  typeNames: [String!]
}

type VersionTag {
  versionTag: String
}
`
