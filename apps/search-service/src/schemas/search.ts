import { CONDITIONS, MAX_PAGE_SIZE } from '@catalog/search'
import { type Static, Type } from 'typebox'

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()])

export const CriterionSchema = Type.Object(
  {
    field: Type.String({ examples: ['platform'] }),
    value: Type.Optional(Scalar),
    values: Type.Optional(Type.Array(Scalar)),
    condition: Type.Optional(
      Type.String({ description: `${CONDITIONS.join(' | ')}; default EQUAL`, examples: ['EQUAL'] }),
    ),
    negated: Type.Optional(Type.Boolean({ default: false })),
  },
  {
    additionalProperties: true,
    description: 'com.linkedin.metadata.query.filter.Criterion: `value` (older clients) or `values`',
  },
)

export const FilterSchema = Type.Object(
  {
    or: Type.Optional(
      Type.Array(Type.Object({ and: Type.Array(CriterionSchema) }, { additionalProperties: true })),
    ),
    criteria: Type.Optional(Type.Array(CriterionSchema, { description: 'Deprecated: one AND group' })),
  },
  { additionalProperties: true, description: 'com.linkedin.metadata.query.filter.Filter: OR of AND groups' },
)

export const SortCriterionSchema = Type.Object(
  {
    field: Type.String(),
    order: Type.Optional(Type.Union([Type.Literal('ASCENDING'), Type.Literal('DESCENDING')])),
  },
  { additionalProperties: true },
)

export const SearchFlagsSchema = Type.Object(
  {
    fulltext: Type.Optional(Type.Boolean()),
    includeSoftDeleted: Type.Optional(Type.Boolean()),
    skipAggregates: Type.Optional(Type.Boolean()),
    maxAggValues: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    skipHighlighting: Type.Optional(Type.Boolean()),
    filterNonLatestVersions: Type.Optional(
      Type.Boolean({ description: 'Leave out versions that are not their set’s latest (default true)' }),
    ),
    hiddenLifecycleStages: Type.Optional(
      Type.Array(Type.String({ maxLength: 1000 }), {
        maxItems: 1000,
        description: 'Lifecycle stages (URNs) whose entities are left out',
      }),
    ),
  },
  { additionalProperties: true, description: 'com.linkedin.metadata.query.SearchFlags' },
)

const Start = Type.Integer({ minimum: 0, description: 'Offset of the first result' })
const PageSize = (name: string) =>
  Type.Integer({ minimum: 0, maximum: MAX_PAGE_SIZE, description: `${name}; at most ${MAX_PAGE_SIZE}` })

export const SearchBodySchema = Type.Object({
  input: Type.String({
    description:
      'Free text (prefix and typo tolerant), `field:value`, `"a phrase"`, `AND`/`OR`/`NOT`, `*` for everything',
    examples: ['sample', 'tags:Legacy', '*'],
  }),
  entity: Type.String({ examples: ['dataset'] }),
  start: Start,
  count: PageSize('Page size'),
  filter: Type.Optional(FilterSchema),
  sort: Type.Optional(SortCriterionSchema),
  sortCriteria: Type.Optional(Type.Array(SortCriterionSchema)),
  fulltext: Type.Optional(Type.Boolean()),
  searchFlags: Type.Optional(SearchFlagsSchema),
})
export type SearchBody = Static<typeof SearchBodySchema>

export const SearchAcrossEntitiesBodySchema = Type.Object({
  input: SearchBodySchema.properties.input,
  entities: Type.Optional(
    Type.Array(Type.String(), { description: 'Entity types; empty or absent means all' }),
  ),
  start: Start,
  count: PageSize('Page size'),
  filter: Type.Optional(FilterSchema),
  sortCriteria: Type.Optional(Type.Array(SortCriterionSchema)),
  searchFlags: Type.Optional(SearchFlagsSchema),
})
export type SearchAcrossEntitiesBody = Static<typeof SearchAcrossEntitiesBodySchema>

export const FilterBodySchema = Type.Object({
  entity: Type.String({ examples: ['dataset'] }),
  filter: Type.Optional(FilterSchema),
  sort: Type.Optional(SortCriterionSchema),
  start: Start,
  count: PageSize('Page size'),
})
export type FilterBody = Static<typeof FilterBodySchema>

export const AutocompleteBodySchema = Type.Object({
  query: Type.String({ examples: ['Sample'] }),
  entity: Type.String({ examples: ['dataset'] }),
  limit: PageSize('Most suggestions'),
  start: Type.Optional(Start),
  field: Type.Optional(Type.String({ description: 'Suggest values of this field only' })),
  filter: Type.Optional(FilterSchema),
  searchFlags: Type.Optional(SearchFlagsSchema),
})
export type AutocompleteBody = Static<typeof AutocompleteBodySchema>

export const BrowseBodySchema = Type.Object({
  path: Type.String({ examples: ['/prod'] }),
  entity: Type.String({ examples: ['dataset'] }),
  start: Start,
  limit: PageSize('Page size (groups first, then entities)'),
  filter: Type.Optional(FilterSchema),
  searchFlags: Type.Optional(SearchFlagsSchema),
})
export type BrowseBody = Static<typeof BrowseBodySchema>

const MatchedField = Type.Object({ name: Type.String(), value: Type.String() })
const FilterValue = Type.Object({
  value: Type.String(),
  entity: Type.Optional(Type.String()),
  facetCount: Type.Integer(),
  filtered: Type.Boolean(),
})
const Counts = Type.Record(Type.String(), Type.Integer())

export const SearchResultSchema = Type.Object(
  {
    from: Type.Integer(),
    pageSize: Type.Integer(),
    numEntities: Type.Integer({ description: 'Total hits' }),
    entities: Type.Array(Type.String(), { description: 'URNs of this page (spec shape)' }),
    metadata: Type.Object({
      urns: Type.Array(Type.String()),
      matches: Type.Array(Type.Object({ matchedFields: Type.Array(MatchedField) })),
      searchResultMetadatas: Type.Array(Type.Object({ name: Type.String(), aggregations: Counts })),
      aggregations: Type.Array(
        Type.Object({
          name: Type.String(),
          displayName: Type.String(),
          aggregations: Counts,
          filterValues: Type.Array(FilterValue),
        }),
        { description: "DataHub's facets, counted over all hits" },
      ),
      suggestions: Type.Array(Type.Unknown()),
    }),
  },
  { description: 'com.linkedin.metadata.search.SearchResult' },
)
export type SearchResultValue = Static<typeof SearchResultSchema>

export const ListResultSchema = Type.Object({
  entities: Type.Array(Type.String()),
  start: Type.Integer(),
  count: Type.Integer(),
  total: Type.Integer(),
})
export type ListResultValue = Static<typeof ListResultSchema>

export const AutocompleteResultSchema = Type.Object({
  query: Type.String(),
  suggestions: Type.Array(Type.String()),
  entities: Type.Array(Type.Object({ urn: Type.String() }), { description: 'The hit of each suggestion' }),
})
export type AutocompleteResultValue = Static<typeof AutocompleteResultSchema>

const Group = Type.Object({ name: Type.String(), count: Type.Integer() })
export const BrowseResultSchema = Type.Object({
  entities: Type.Array(Type.Object({ name: Type.String(), urn: Type.String() })),
  groups: Type.Array(Group),
  metadata: Type.Object({ path: Type.String(), totalNumEntities: Type.Integer(), groups: Type.Array(Group) }),
  from: Type.Integer(),
  pageSize: Type.Integer(),
  numEntities: Type.Integer(),
  numGroups: Type.Integer(),
  numElements: Type.Integer(),
})
export type BrowseResultValue = Static<typeof BrowseResultSchema>

/** `{value: <result>}`, as every Rest.li action answers. */
export const actionResult = <T extends ReturnType<typeof Type.Object>>(schema: T) =>
  Type.Object({ value: schema })
