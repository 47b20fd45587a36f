import {
  type BrowseV2Request,
  type BrowseV2ResultPage,
  browsePathV2Node,
  browseV2Groups,
} from '@catalog/search'
import { ATTR } from './attributes.js'
import { and, type FilterExpr, inList, isFalse, render, resolveLookups } from './filter-expr.js'
import { scopeFilter, translateFilter } from './filter-translator.js'
import { LookupResolver } from './lookup-resolver.js'
import { planQuery, renderQ } from './query-plan.js'
import { type QueryContext, searchAttributes, UNION_HITS } from './search-query.js'
import { nodeToken } from './tokens.js'

const EMPTY: BrowseV2ResultPage = { groups: [], numGroups: 0, totalNumEntities: 0 }
const SCAN_PAGE = 1000
const FIELDS = [ATTR.urn, 'browsePathV2']

/**
 * browseV2 as DataHub's `ESBrowseDAO.browseV2`: the documents of the scope, filter and query
 * under the browsed node (its `_bv2` token) are read (every document for `*`, else the hits of
 * each query alternative, up to {@link UNION_HITS} each) and their paths grouped by the next
 * entry, with counts and sub-groups; groups by count then name, paged by `start`/`count`.
 */
export async function browseV2Query(ctx: QueryContext, req: BrowseV2Request): Promise<BrowseV2ResultPage> {
  const node = browsePathV2Node(req.path)
  const scope = scopeFilter(req.entityTypes, req.includeRemoved)
  const resolver = new LookupResolver(ctx.backend, ctx.catalog, scope)
  const resolve = (e: FilterExpr) => resolveLookups(e, (l) => resolver.resolve(l))
  const base = await resolve(
    and(scope, translateFilter(req.filter, ctx.catalog), inList(ATTR.underV2, [nodeToken(node)])),
  )
  if (isFalse(base)) return EMPTY
  const searchOn = searchAttributes(ctx, req.entityTypes)
  const paths = new Map<string, string[]>()
  for (const branch of planQuery(req.query)) {
    if (branch.texts.length > 0 && searchOn.length === 0) continue
    const filter = await resolve(and(base, branch.filter))
    if (isFalse(filter)) continue
    const rendered = render(filter)
    const docs =
      branch.texts.length === 0
        ? await scan(ctx, rendered)
        : (
            await ctx.backend.search(
              {
                q: renderQ(branch),
                attributesToSearchOn: searchOn,
                matchingStrategy: 'all',
                ...(rendered ? { filter: rendered } : {}),
                attributesToRetrieve: FIELDS,
                page: 1,
                hitsPerPage: UNION_HITS,
              },
              'browseV2',
            )
          ).hits
    for (const d of docs) paths.set(String(d[ATTR.urn]), valuesOf(d.browsePathV2))
  }
  const { groups, total } = browseV2Groups(paths.values(), node)
  return {
    groups: groups.slice(req.start, req.start + req.count),
    numGroups: groups.length,
    totalNumEntities: total,
  }
}

/** Every document matching a filter (its URN and browse path v2), read page by page. */
async function scan(ctx: QueryContext, filter: string | undefined): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = []
  for (let offset = 0; ; offset += SCAN_PAGE) {
    const page = await ctx.backend.documents<Record<string, unknown>>(
      { fields: FIELDS, limit: SCAN_PAGE, offset, ...(filter ? { filter } : {}) },
      'browseV2',
    )
    out.push(...page.results)
    if (page.results.length < SCAN_PAGE || offset + SCAN_PAGE >= page.total) return out
  }
}

const valuesOf = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]
