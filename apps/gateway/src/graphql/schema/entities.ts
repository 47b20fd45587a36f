/** Tag, user, group, chart, dashboard, glossary term, platform and access-token types (subset). */
export const ENTITIES_SDL = /* GraphQL */ `
type Tag implements Entity {
  urn: String!
  type: EntityType!
  name: String! @deprecated(reason: "Use properties.name")
  properties: TagProperties
  ownership: Ownership
  status: Status
  deprecation: Deprecation
  exists: Boolean
  description: String @deprecated(reason: "Use properties.description")
}

type TagProperties {
  name: String!
  description: String
  colorHex: String
}

type CorpUser implements Entity {
  urn: String!
  type: EntityType!
  username: String!
  info: CorpUserInfo @deprecated(reason: "Use properties")
  properties: CorpUserProperties
  editableProperties: CorpUserEditableProperties
  globalTags: GlobalTags
  status: Status
  exists: Boolean
}

type CorpUserInfo {
  active: Boolean!
  displayName: String
  title: String
  email: String
  firstName: String
  lastName: String
  fullName: String
  manager: CorpUser
  departmentId: Long
  departmentName: String
  countryCode: String
  customProperties: [CustomPropertiesEntry!]
}

type CorpUserProperties {
  active: Boolean!
  displayName: String
  title: String
  email: String
  firstName: String
  lastName: String
  fullName: String
  manager: CorpUser
  departmentId: Long
  departmentName: String
  countryCode: String
  customProperties: [CustomPropertiesEntry!]
}

type CorpUserEditableProperties {
  displayName: String
  title: String
  aboutMe: String
  teams: [String!]
  skills: [String!]
  pictureLink: String
  slack: String
  phone: String
  email: String
}

type CorpGroup implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  info: CorpGroupInfo @deprecated(reason: "Use properties")
  properties: CorpGroupProperties
  editableProperties: CorpGroupEditableProperties
  ownership: Ownership
  status: Status
  exists: Boolean
}

type CorpGroupInfo {
  displayName: String
  description: String
  email: String
  admins: [CorpUser!] @deprecated
  members: [CorpUser!] @deprecated
  groups: [String!] @deprecated
}

type CorpGroupProperties {
  displayName: String
  description: String
  email: String
  slack: String
}

type CorpGroupEditableProperties {
  description: String
  slack: String
  pictureLink: String
  email: String
}

enum ChartType {
  BAR
  PIE
  SCATTER
  TABLE
  TEXT
  LINE
  AREA
  HISTOGRAM
  BOX_PLOT
  WORD_CLOUD
  COHORT
}

enum AccessLevel {
  PUBLIC
  PRIVATE
}

type Chart implements Entity {
  urn: String!
  type: EntityType!
  tool: String!
  chartId: String!
  platform: DataPlatform!
  properties: ChartProperties
  editableProperties: ChartEditableProperties
  ownership: Ownership
  status: Status
  deprecation: Deprecation
  institutionalMemory: InstitutionalMemory
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  exists: Boolean
  globalTags: GlobalTags @deprecated(reason: "Use tags")
}

type ChartProperties {
  name: String!
  description: String
  externalUrl: String
  type: ChartType
  access: AccessLevel
  lastRefreshed: Long
  lastModified: AuditStamp!
  created: AuditStamp!
  customProperties: [CustomPropertiesEntry!]
}

type ChartEditableProperties {
  description: String
}

type Dashboard implements Entity {
  urn: String!
  type: EntityType!
  tool: String!
  dashboardId: String!
  platform: DataPlatform!
  properties: DashboardProperties
  editableProperties: DashboardEditableProperties
  ownership: Ownership
  status: Status
  deprecation: Deprecation
  institutionalMemory: InstitutionalMemory
  tags: GlobalTags
  glossaryTerms: GlossaryTerms
  exists: Boolean
  globalTags: GlobalTags @deprecated(reason: "Use tags")
}

type DashboardProperties {
  name: String!
  description: String
  externalUrl: String
  access: AccessLevel
  lastRefreshed: Long
  lastModified: AuditStamp!
  created: AuditStamp!
  customProperties: [CustomPropertiesEntry!]
}

type DashboardEditableProperties {
  description: String
}

type GlossaryTerm implements Entity {
  urn: String!
  type: EntityType!
  name: String! @deprecated(reason: "Use properties.name")
  hierarchicalName: String!
  properties: GlossaryTermProperties
  glossaryTermInfo: GlossaryTermInfo @deprecated(reason: "Use properties")
  ownership: Ownership
  deprecation: Deprecation
  institutionalMemory: InstitutionalMemory
  status: Status
  exists: Boolean
}

type GlossaryTermProperties {
  name: String!
  description: String
  definition: String!
  termSource: String!
  sourceRef: String
  sourceUrl: String
  rawSchema: String
  customProperties: [CustomPropertiesEntry!]
}

type GlossaryTermInfo {
  name: String
  description: String
  definition: String!
  termSource: String!
  sourceRef: String
  sourceUrl: String
  rawSchema: String
  customProperties: [CustomPropertiesEntry!]
}

enum PlatformType {
  FILE_SYSTEM
  KEY_VALUE_STORE
  MESSAGE_BROKER
  OBJECT_STORE
  OLAP_DATASTORE
  OTHERS
  QUERY_ENGINE
  RELATIONAL_DB
  SEARCH_ENGINE
}

type DataPlatform implements Entity {
  urn: String!
  type: EntityType!
  name: String!
  properties: DataPlatformProperties
  displayName: String
  info: DataPlatformInfo @deprecated(reason: "Use properties")
}

type DataPlatformProperties {
  type: PlatformType!
  displayName: String
  datasetNameDelimiter: String!
  logoUrl: String
}

type DataPlatformInfo {
  type: PlatformType!
  displayName: String
  datasetNameDelimiter: String!
  logoUrl: String
}

"The stored record of an access token (never the token itself)."
type AccessTokenMetadata implements Entity {
  urn: String!
  type: EntityType!
  id: String!
  name: String!
  description: String
  actorUrn: String!
  ownerUrn: String!
  createdAt: Long!
  expiresAt: Long
}

type AccessToken {
  "The access token itself"
  accessToken: String!
  "Metadata about the generated token"
  metadata: AccessTokenMetadata
}
`
