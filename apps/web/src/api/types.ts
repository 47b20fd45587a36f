/** The slices of DataHub's GraphQL types the UI reads (see queries.ts). */

export interface TagRef {
  tag: { urn: string; name?: string | null; properties?: { name?: string | null } | null }
}
export interface TermRef {
  term: { urn: string; name?: string | null }
}
export interface Platform {
  urn: string
  name?: string | null
  properties?: { displayName?: string | null } | null
}

export interface EntitySummary {
  urn: string
  type: string
  name?: string | null
  username?: string | null
  description?: string | null
  platform?: Platform | null
  properties?: {
    name?: string | null
    description?: string | null
    qualifiedName?: string | null
    externalUrl?: string | null
    customProperties?: { key: string; value?: string | null }[] | null
  } | null
  editableProperties?: { description?: string | null } | null
  globalTags?: { tags?: TagRef[] | null } | null
}

export interface SchemaField {
  fieldPath: string
  nativeDataType?: string | null
  type?: string | null
  nullable?: boolean | null
  description?: string | null
  globalTags?: { tags?: TagRef[] | null } | null
  glossaryTerms?: { terms?: TermRef[] | null } | null
}

export interface EntityDetail extends EntitySummary {
  schemaMetadata?: { name?: string | null; fields: SchemaField[] } | null
  editableSchemaMetadata?: { editableSchemaFieldInfo: SchemaField[] } | null
  ownership?: {
    owners?: {
      owner: { urn: string; username?: string | null; name?: string | null }
      type?: string | null
    }[]
  } | null
  glossaryTerms?: { terms?: TermRef[] | null } | null
  institutionalMemory?: { elements: { url: string; label: string }[] } | null
}

export interface Aggregation {
  value: string
  count: number
  entity?: {
    urn: string
    name?: string | null
    properties?: { name?: string | null; displayName?: string | null } | null
  } | null
}

export interface Facet {
  field: string
  displayName?: string | null
  aggregations: Aggregation[]
}

export interface SearchAnswer {
  searchAcrossEntities: {
    start: number
    count: number
    total: number
    searchResults: { entity: EntitySummary }[]
    facets: Facet[]
  }
}

export interface LineageHop {
  total: number
  relationships: { type: string; entity: EntitySummary | null }[]
}

export interface LineageAnswer {
  entity: { urn: string; lineage?: LineageHop | null } | null
}

export interface LineageHopsAnswer {
  searchAcrossLineage: {
    start: number
    count: number
    total: number
    isPartial?: boolean | null
    searchResults: {
      degree: number
      entity: EntitySummary
      paths?: ({ path: ({ urn: string } | null)[] } | null)[] | null
    }[]
  }
}

export interface BrowseAnswer {
  browse: {
    start: number
    count: number
    total: number
    groups: { name: string; count: number }[]
    entities: EntitySummary[]
    metadata: { path: string[]; totalNumEntities: number }
  }
}
