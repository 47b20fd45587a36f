/** Query and Mutation roots with their inputs, named as in DataHub's `entity.graphql` and `auth.graphql`. */
export const OPERATIONS_SDL = /* GraphQL */ `
type Query {
  dataset(urn: String!): Dataset
  tag(urn: String!): Tag
  corpUser(urn: String!): CorpUser
  corpGroup(urn: String!): CorpGroup
  chart(urn: String!): Chart
  dashboard(urn: String!): Dashboard
  glossaryTerm(urn: String!): GlossaryTerm
  dataPlatform(urn: String!): DataPlatform
  mlFeature(urn: String!): MLFeature
  mlPrimaryKey(urn: String!): MLPrimaryKey
  mlFeatureTable(urn: String!): MLFeatureTable
  mlModel(urn: String!): MLModel
  mlModelGroup(urn: String!): MLModelGroup
  "Gets an entity based on its urn"
  entity(urn: String!): Entity
  "Gets entities based on their urns (at most 500)"
  entities(urns: [String!]!): [Entity]
  "Whether an entity exists"
  entityExists(urn: String!): Boolean
  "Fetches the metadata of an access token (the token must be valid)"
  getAccessTokenMetadata(token: String!): AccessTokenMetadata!
}

type Mutation {
  "Update the metadata about a particular Dataset"
  updateDataset(urn: String!, input: DatasetUpdateInput!): Dataset
  "Updates the description of a resource (a dataset, one of its fields, and most other entities)"
  updateDescription(input: DescriptionUpdateInput!): Boolean
  "Create a new tag; fails if a tag with the id exists"
  createTag(input: CreateTagInput!): String
  "Add a tag to a particular Entity or subresource"
  addTag(input: TagAssociationInput!): Boolean
  "Add multiple tags to a particular Entity or subresource"
  addTags(input: AddTagsInput!): Boolean
  "Remove a tag from a particular Entity or subresource"
  removeTag(input: TagAssociationInput!): Boolean
  "Sets the Deprecation status for a Metadata Entity"
  updateDeprecation(input: UpdateDeprecationInput!): Boolean
  "Updates the deprecation status for a batch of assets"
  batchUpdateDeprecation(input: BatchUpdateDeprecationInput!): Boolean
  "Generates an access token for a particular actor"
  createAccessToken(input: CreateAccessTokenInput!): AccessToken
  "Revokes an access token"
  revokeAccessToken(tokenId: String!): Boolean!
}

input DatasetUpdateInput {
  ownership: OwnershipUpdate
  deprecation: DatasetDeprecationUpdate
  institutionalMemory: InstitutionalMemoryUpdate
  globalTags: GlobalTagsUpdate @deprecated(reason: "Use tags")
  tags: GlobalTagsUpdate
  editableSchemaMetadata: EditableSchemaMetadataUpdate
  editableProperties: DatasetEditablePropertiesUpdate
}

input OwnershipUpdate {
  owners: [OwnerUpdate!]!
}

input OwnerUpdate {
  owner: String!
  type: OwnershipType @deprecated(reason: "Use ownershipTypeUrn")
  ownershipTypeUrn: String
}

input DatasetDeprecationUpdate {
  deprecated: Boolean!
  decommissionTime: Long
  note: String!
}

input InstitutionalMemoryUpdate {
  elements: [InstitutionalMemoryMetadataUpdate!]!
}

input InstitutionalMemoryMetadataUpdate {
  url: String!
  description: String
  author: String!
  createdAt: Long
}

input GlobalTagsUpdate {
  tags: [TagAssociationUpdate!]
}

input TagAssociationUpdate {
  tag: TagUpdateInput!
}

input TagUpdateInput {
  urn: String!
  name: String!
  description: String
  ownership: OwnershipUpdate
}

input EditableSchemaMetadataUpdate {
  editableSchemaFieldInfo: [EditableSchemaFieldInfoUpdate!]!
}

input EditableSchemaFieldInfoUpdate {
  fieldPath: String!
  description: String
  globalTags: GlobalTagsUpdate
}

input DatasetEditablePropertiesUpdate {
  description: String!
  name: String
}

input DescriptionUpdateInput {
  description: String!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input CreateTagInput {
  id: String
  name: String!
  description: String
}

input TagAssociationInput {
  tagUrn: String!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input AddTagsInput {
  tagUrns: [String!]!
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

input UpdateDeprecationInput {
  urn: String!
  subResourceType: SubResourceType
  subResource: String
  deprecated: Boolean!
  decommissionTime: Long
  note: String
  replacement: String
}

input BatchUpdateDeprecationInput {
  deprecated: Boolean!
  decommissionTime: Long
  note: String
  resources: [ResourceRefInput]!
  replacement: String
}

input ResourceRefInput {
  resourceUrn: String!
  subResourceType: SubResourceType
  subResource: String
}

enum AccessTokenType {
  PERSONAL
}

enum AccessTokenDuration {
  ONE_HOUR
  ONE_DAY
  ONE_WEEK
  ONE_MONTH
  THREE_MONTHS
  SIX_MONTHS
  ONE_YEAR
  NO_EXPIRY
}

input CreateAccessTokenInput {
  type: AccessTokenType!
  actorUrn: String!
  duration: AccessTokenDuration!
  name: String!
  description: String
}
`
