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
        ownership { owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name } } type } }
        glossaryTerms { terms { term { urn name } } }
      }
    }
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
