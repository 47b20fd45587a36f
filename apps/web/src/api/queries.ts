/** The GraphQL operations of the UI, all on DataHub's public schema. */

/** Name, description and platform of any entity type the search can return. */
const ENTITY_SUMMARY = /* GraphQL */ `
  fragment EntitySummary on Entity {
    urn
    type
    ... on Dataset {
      name
      platform { urn name properties { displayName } }
      properties { name description }
      editableProperties { description }
      globalTags { tags { tag { urn name properties { name } } } }
    }
    ... on Chart {
      platform { urn name properties { displayName } }
      properties { name description }
      globalTags { tags { tag { urn name properties { name } } } }
    }
    ... on Dashboard {
      platform { urn name properties { displayName } }
      properties { name description }
      globalTags { tags { tag { urn name properties { name } } } }
    }
    ... on DataFlow {
      platform { urn name properties { displayName } }
      properties { name description }
      globalTags { tags { tag { urn name properties { name } } } }
    }
    ... on DataJob {
      properties { name description }
      globalTags { tags { tag { urn name properties { name } } } }
    }
    ... on MLModel {
      name
      description
      platform { urn name properties { displayName } }
      globalTags { tags { tag { urn name properties { name } } } }
    }
    ... on MLFeature { name description }
    ... on MLFeatureTable { name description platform { urn name properties { displayName } } }
    ... on MLPrimaryKey { name description }
    ... on CorpUser { username }
    ... on CorpGroup { name }
    ... on Tag { name description }
    ... on GlossaryTerm { name }
  }
`

export const SEARCH = /* GraphQL */ `
  query search($input: SearchAcrossEntitiesInput!) {
    searchAcrossEntities(input: $input) {
      start
      count
      total
      searchResults { entity { ...EntitySummary } }
      facets {
        field
        displayName
        aggregations {
          value
          count
          entity { urn ... on Tag { name properties { name } } ... on DataPlatform { name properties { displayName } } }
        }
      }
    }
  }
  ${ENTITY_SUMMARY}
`

export const AUTOCOMPLETE = /* GraphQL */ `
  query autocomplete($input: AutoCompleteMultipleInput!) {
    autoCompleteForMultiple(input: $input) {
      suggestions { type suggestions entities { urn } }
    }
  }
`

export const ME = /* GraphQL */ `
  query me {
    me { corpUser { urn username } }
  }
`

export const ENTITY = /* GraphQL */ `
  query entity($urn: String!) {
    entity(urn: $urn) {
      ...EntitySummary
      ... on Dataset {
        properties { qualifiedName externalUrl customProperties { key value } }
        schemaMetadata {
          name
          fields {
            fieldPath
            nativeDataType
            type
            nullable
            description
            globalTags { tags { tag { urn name properties { name } } } }
            glossaryTerms { terms { term { urn name } } }
          }
        }
        editableSchemaMetadata {
          editableSchemaFieldInfo {
            fieldPath
            description
            globalTags { tags { tag { urn name properties { name } } } }
            glossaryTerms { terms { term { urn name } } }
          }
        }
        ownership { ...Owners }
        institutionalMemory { ...Links }
        glossaryTerms { terms { term { urn name } } }
      }
      ... on Chart { ownership { ...Owners } institutionalMemory { ...Links } editableProperties { description } }
      ... on Dashboard { ownership { ...Owners } institutionalMemory { ...Links } editableProperties { description } }
      ... on DataFlow { ownership { ...Owners } institutionalMemory { ...Links } editableProperties { description } }
      ... on DataJob { ownership { ...Owners } institutionalMemory { ...Links } editableProperties { description } }
    }
  }
  fragment Owners on Ownership {
    owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name } } type }
  }
  fragment Links on InstitutionalMemory {
    elements { url label }
  }
  ${ENTITY_SUMMARY}
`

/** One hop of lineage in one direction, with enough of each neighbour to draw it. */
export const LINEAGE = /* GraphQL */ `
  query lineage($urn: String!, $direction: LineageDirection!) {
    entity(urn: $urn) {
      urn
      ... on Dataset { lineage(input: { direction: $direction, count: 100 }) { ...Hop } }
      ... on DataJob { lineage(input: { direction: $direction, count: 100 }) { ...Hop } }
      ... on Chart { lineage(input: { direction: $direction, count: 100 }) { ...Hop } }
      ... on Dashboard { lineage(input: { direction: $direction, count: 100 }) { ...Hop } }
      ... on MLModel { lineage(input: { direction: $direction, count: 100 }) { ...Hop } }
    }
  }
  fragment Hop on EntityLineageResult {
    total
    relationships { type entity { ...EntitySummary } }
  }
  ${ENTITY_SUMMARY}
`

/** The editing mutations of the entity page, each DataHub's, answering a Boolean. */
export const UPDATE_DESCRIPTION = /* GraphQL */ `
  mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }
`
export const ADD_TAG = /* GraphQL */ `
  mutation addTag($input: TagAssociationInput!) { addTag(input: $input) }
`
export const REMOVE_TAG = /* GraphQL */ `
  mutation removeTag($input: TagAssociationInput!) { removeTag(input: $input) }
`
export const ADD_OWNER = /* GraphQL */ `
  mutation addOwner($input: AddOwnerInput!) { addOwner(input: $input) }
`
export const REMOVE_OWNER = /* GraphQL */ `
  mutation removeOwner($input: RemoveOwnerInput!) { removeOwner(input: $input) }
`
export const ADD_LINK = /* GraphQL */ `
  mutation addLink($input: AddLinkInput!) { addLink(input: $input) }
`
export const REMOVE_LINK = /* GraphQL */ `
  mutation removeLink($input: RemoveLinkInput!) { removeLink(input: $input) }
`

/**
 * The entities up to N hops away in one direction (`degree` filter: "1", "2", "3+"), each with
 * the path the walk took from the root, for drawing the edges.
 */
export const LINEAGE_HOPS = /* GraphQL */ `
  query lineageHops($input: SearchAcrossLineageInput!) {
    searchAcrossLineage(input: $input) {
      start
      count
      total
      isPartial
      searchResults {
        degree
        entity { ...EntitySummary }
        paths { path { urn } }
      }
    }
  }
  ${ENTITY_SUMMARY}
`

/** One level of the legacy browse tree (`browsePaths`): the groups below a path and its entities. */
export const BROWSE = /* GraphQL */ `
  query browse($input: BrowseInput!) {
    browse(input: $input) {
      start
      count
      total
      groups { name count }
      entities { ...EntitySummary }
      metadata { path totalNumEntities }
    }
  }
  ${ENTITY_SUMMARY}
`
