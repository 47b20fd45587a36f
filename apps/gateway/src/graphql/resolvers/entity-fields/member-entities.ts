import type { GraphQLResolveInfo } from 'graphql'
import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'
import { searchQueries } from '../search.js'
import type { FacetFilter } from '../search-input.js'

/** DataHub's page size of a container's or domain's entities when `count` is not given. */
const DEFAULT_COUNT = 20

interface MemberEntitiesInput {
  readonly query?: string | null
  readonly start?: number | null
  readonly count?: number | null
  readonly filters?: readonly FacetFilter[] | null
}

/**
 * `entities(input:)` of a container or a domain, as DataHub's ContainerEntitiesResolver and
 * DomainEntitiesResolver: a search (default `*`, 20 per page) of the entities whose
 * `field` (the `container` or `domains` aspect) names this one, narrowed by `filters`.
 */
function memberEntities(field: string) {
  return (
    source: EntitySource,
    { input }: { input?: MemberEntitiesInput | null },
    ctx: CatalogContext,
    info?: GraphQLResolveInfo,
  ) =>
    searchQueries.searchAcrossEntities(
      undefined,
      {
        input: {
          query: input?.query ?? '*',
          start: input?.start ?? 0,
          count: input?.count ?? DEFAULT_COUNT,
          orFilters: [{ and: [{ field, values: [source.urn] }, ...(input?.filters ?? [])] }],
        },
      },
      ctx,
      info,
    )
}

/** `Container.entities`: the entities directly in the container. */
export const containerEntities = memberEntities('container')

/** `Domain.entities`: the entities in the domain. */
export const domainEntities = memberEntities('domains')
