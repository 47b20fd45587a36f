import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { listEntities } from './users-groups.js'

/** DataHub's `ListDomainsInput`. */
interface ListDomainsInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
  readonly parentDomain?: string | null
}

/**
 * DataHub's `ListDomainsResolver`: the domains directly under `parentDomain` (without one, the
 * root domains: those with no parent) that match `query` (every one without a query), newest
 * first by `domainProperties.created`, from the search index. As in DataHub, any user may list
 * domains; a malformed `parentDomain` is refused (400).
 */
async function listDomains(_: unknown, { input }: { input: ListDomainsInput }, ctx: CatalogContext) {
  const parent = input.parentDomain == null ? undefined : ctx.registry.resolveUrn(input.parentDomain).urn
  const { urns, ...page } = await listEntities(
    ctx,
    'domain',
    {
      ...input,
      orFilters: [
        {
          and: [
            parent === undefined
              ? { field: 'parentDomain', condition: 'IS_NULL' }
              : { field: 'parentDomain', values: [parent] },
          ],
        },
      ],
    },
    [{ field: 'createdTime', order: 'DESCENDING' }],
  )
  return { ...page, domains: urns.map((urn): EntitySource => ({ urn })) }
}

/** Root queries of domains. */
export const domainQueries = { listDomains }
