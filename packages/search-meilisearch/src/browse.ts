import type { BrowseGroup, BrowseRequest, BrowseResultPage } from '@catalog/search'
import { ATTR, childAttr, exactAttr, MAX_BROWSE_DEPTH } from './attributes.js'
import { and, type FilterExpr, inList, isFalse, render, resolveLookups } from './filter-expr.js'
import { scopeFilter, translateFilter } from './filter-translator.js'
import { MAX_VALUES_PER_FACET } from './index-settings.js'
import { LookupResolver } from './lookup-resolver.js'
import { pageWindow } from './pagination.js'
import type { QueryContext } from './search-query.js'
import { decodeChild, exactToken, nodeOf, nodeToken, pathSegments } from './tokens.js'

const EMPTY: BrowseResultPage = {
  entities: [],
  groups: [],
  numEntities: 0,
  numGroups: 0,
  totalNumEntities: 0,
}
const SCAN_PAGE = 1000

/**
 * Browse as DataHub's `ESBrowseDAO.browse`, on the browse tokens each document carries:
 * - documents strictly under the path hold its node in `_bu`: their count is
 *   `totalNumEntities`;
 * - the groups are the facet values of `_bc<depth>` (a pair of parent node and next segment)
 *   over those documents, kept where the parent is the path: each count is the documents
 *   with a browse path under `<path>/<group>`. When the facet may be capped (as many buckets
 *   as Meilisearch returns) or the path is deeper than the kept depth, the documents under
 *   the path are scanned instead, so the groups are always exact;
 * - entities are the documents whose browse path equals the path (exact tokens), URN order.
 * Groups come first in paging: a page of `limit` from `start` takes groups
 * `[start, start+limit)`, then entities from `max(start - numGroups, 0)`.
 */
export async function browseQuery(ctx: QueryContext, req: BrowseRequest): Promise<BrowseResultPage> {
  const base = req.path.replace(/\/+$/, '')
  const segments = pathSegments(base)
  const node = nodeOf(segments)
  const scope = scopeFilter([req.entityType], req.includeRemoved)
  const resolver = new LookupResolver(ctx.backend, ctx.catalog, scope)
  const filter = await resolveLookups(and(scope, translateFilter(req.filter, ctx.catalog)), (l) =>
    resolver.resolve(l),
  )
  if (isFalse(filter)) return EMPTY
  const under = and(filter, inList(ATTR.under, [nodeToken(node)]))
  const { total, groups: all } = await groups(ctx, under, segments)
  const at = [base === '' ? '/' : base, `${base}/`]
  const exactly = render(and(filter, inList(exactAttr('browsePaths'), at.map(exactToken))))
  const numGroups = all.length
  const from = Math.max(req.start - numGroups, 0)
  const size = Math.min(Math.max(req.start + req.limit - numGroups, 0), req.limit)
  const window = pageWindow(from, size)
  const pages = await ctx.backend.multiSearch(
    window.pages.map((p) => ({
      q: '',
      ...(exactly ? { filter: exactly } : {}),
      sort: [`${ATTR.urn}:asc`],
      attributesToRetrieve: [ATTR.urn],
      page: p.page,
      hitsPerPage: p.hitsPerPage,
    })),
    'browse',
  )
  const entities = pages
    .flatMap((p) => p.hits.map((h) => String(h[ATTR.urn])))
    .slice(window.skip, window.skip + window.take)
  return {
    entities,
    groups: all.slice(req.start, req.start + req.limit),
    numEntities: pages[0]?.totalHits ?? 0,
    numGroups,
    totalNumEntities: total,
  }
}

/** The documents under the node of `parent` and its next-level groups, by count then name. */
async function groups(
  ctx: QueryContext,
  under: FilterExpr,
  parent: readonly string[],
): Promise<{ total: number; groups: BrowseGroup[] }> {
  const node = nodeOf(parent)
  const depth = parent.length
  const filter = render(under)
  const attr = childAttr(depth)
  const res = await ctx.backend.search(
    {
      q: '',
      hitsPerPage: 0,
      ...(filter ? { filter } : {}),
      ...(depth < MAX_BROWSE_DEPTH ? { facets: [attr] } : {}),
    },
    'browse',
  )
  const buckets = Object.entries(res.facetDistribution?.[attr] ?? {})
  let found: BrowseGroup[] | undefined = depth < MAX_BROWSE_DEPTH ? [] : undefined
  if (found && buckets.length < MAX_VALUES_PER_FACET) {
    for (const [token, count] of buckets) {
      const name = decodeChild(token, node)
      if (name === null) continue
      if (name === undefined) {
        found = undefined
        break
      }
      found.push({ name, count })
    }
  } else found = undefined
  const list = found ?? (await scanGroups(ctx, filter, parent))
  return { total: res.totalHits, groups: list.sort(byCount) }
}

/** Groups counted from the browse paths of every document under the node of `parent`. */
async function scanGroups(
  ctx: QueryContext,
  filter: string | undefined,
  parent: readonly string[],
): Promise<BrowseGroup[]> {
  const depth = parent.length
  const counts = new Map<string, number>()
  for (let offset = 0; ; offset += SCAN_PAGE) {
    const page = await ctx.backend.documents<Record<string, unknown>>(
      { fields: ['browsePaths'], limit: SCAN_PAGE, offset, ...(filter ? { filter } : {}) },
      'browse',
    )
    for (const doc of page.results) {
      const names = new Set<string>()
      const paths = Array.isArray(doc.browsePaths) ? doc.browsePaths : []
      for (const p of paths) {
        const segments = pathSegments(String(p))
        if (segments.length > depth && parent.every((s, i) => segments[i] === s))
          names.add(segments[depth] as string)
      }
      for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1)
    }
    if (page.results.length < SCAN_PAGE || offset + SCAN_PAGE >= page.total) break
  }
  return [...counts].map(([name, count]) => ({ name, count }))
}

function byCount(a: BrowseGroup, b: BrowseGroup): number {
  return b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
}
