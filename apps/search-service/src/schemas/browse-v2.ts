import { MAX_PAGE_SIZE } from '@catalog/search'
import { type Static, Type } from 'typebox'
import { FilterSchema, SearchFlagsSchema } from './search.js'

export const BrowseV2BodySchema = Type.Object({
  entities: Type.Optional(
    Type.Array(Type.String(), { description: 'Entity types browsed; empty or absent: every type' }),
  ),
  path: Type.Array(Type.String(), {
    description: 'The browsed path as its entries’ ids (`browsePathsV2.path[].id`); empty for the root',
    examples: [['urn:li:container:db']],
  }),
  input: Type.Optional(Type.String({ description: 'Search query narrowing the entities; `*` by default' })),
  // Bounds are checked by the request builder, so a bad page reads the same over REST and GraphQL.
  start: Type.Integer({ description: 'First group of the page; not negative' }),
  count: Type.Integer({ description: `Groups per page; 0 to ${MAX_PAGE_SIZE}` }),
  filter: Type.Optional(FilterSchema),
  searchFlags: Type.Optional(SearchFlagsSchema),
})
export type BrowseV2Body = Static<typeof BrowseV2BodySchema>

export const BrowseResultV2Schema = Type.Object(
  {
    groups: Type.Array(
      Type.Object({
        name: Type.String({ description: 'The next path entry’s id' }),
        count: Type.Integer(),
        hasSubGroups: Type.Boolean(),
        urn: Type.Optional(Type.String({ description: 'The entry’s entity, when its id is a URN' })),
      }),
    ),
    metadata: Type.Object({
      path: Type.String({ description: 'The browsed path, each id after the ␟ (U+241F) delimiter' }),
      totalNumEntities: Type.Integer({ description: 'Entities strictly under the path' }),
    }),
    from: Type.Integer(),
    pageSize: Type.Integer(),
    numGroups: Type.Integer({ description: 'All groups under the path' }),
  },
  { description: 'com.linkedin.metadata.browse.BrowseResultV2' },
)
export type BrowseResultV2Value = Static<typeof BrowseResultV2Schema>
