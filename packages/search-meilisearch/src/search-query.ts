import { InvalidInputError } from '@catalog/core'
import {
  ENTITY_TYPE_FIELD,
  type SearchHit,
  type SearchRequest,
  type SearchResultPage,
  type SearchSchema,
  URN_FIELD,
} from '@catalog/search'
import { ATTR, type FieldCatalog, textAttr } from './attributes.js'
import type { MeiliBackend, PagedResponse } from './backend.js'
import { and, type FilterExpr, inList, isFalse, render, resolveLookups } from './filter-expr.js'
import { scopeFilter, translateFilter } from './filter-translator.js'
import { decodeFacets, facetAttr, HIT_ATTRIBUTES, type HitDocument, toSearchHit } from './hits.js'
import { LookupResolver } from './lookup-resolver.js'
import { pageWindow } from './pagination.js'
import { type Branch, planQuery, renderQ } from './query-plan.js'

/** Hits read per alternative when a query unions several (totals and facets are exact below it). */
export const UNION_HITS = 10_000

/** What the query functions share: the backend, the schema and its field catalog. */
export interface QueryContext {
  readonly backend: MeiliBackend
  readonly schema: SearchSchema
  readonly catalog: FieldCatalog
  readonly warn: (details: object, message: string) => void
}

const EMPTY: SearchResultPage = { total: 0, hits: [], facets: [] }

/**
 * Runs a search. The query is planned as alternatives (see `planQuery`); filters and
 * lookups are resolved; then:
 * - one alternative (most queries: words, phrases, `field:value`, `*`, any filter) is one
 *   Meilisearch search: `q` with `matchingStrategy: 'all'` over the entity types' default
 *   fields, the filter, facets from `facetDistribution` (counted over every hit), exact totals;
 * - several (free words joined by OR, as `orders daily` is) are searched at once, each
 *   reading up to {@link UNION_HITS} keys with their ranking scores; the union is ordered by
 *   the number of alternatives a document matched, then the sum of its scores, then URN,
 *   and its facets are counted by one more search over exactly those documents.
 */
export async function searchQuery(ctx: QueryContext, req: SearchRequest): Promise<SearchResultPage> {
  const scope = scopeFilter(req.entityTypes, req.includeRemoved)
  const resolver = new LookupResolver(ctx.backend, ctx.catalog, scope)
  const resolve = (e: FilterExpr) => resolveLookups(e, (l) => resolver.resolve(l))
  const base = await resolve(and(scope, translateFilter(req.filter, ctx.catalog)))
  if (isFalse(base)) return EMPTY
  const searchOn = searchAttributes(ctx, req.entityTypes)
  const planned = planQuery(req.query)
  const branches: Array<{ branch: Branch; filter: FilterExpr }> = []
  for (const branch of planned) {
    if (branch.texts.length > 0 && searchOn.length === 0) continue
    const filter = await resolve(and(base, branch.filter))
    if (!isFalse(filter)) branches.push({ branch, filter })
  }
  const sort = sortAttribute(ctx, req)
  const first = branches[0]
  if (!first) return EMPTY
  if (branches.length === 1) return single(ctx, req, first.branch, first.filter, searchOn, sort)
  return union(ctx, req, branches, searchOn, sort)
}

async function single(
  ctx: QueryContext,
  req: SearchRequest,
  branch: Branch,
  filter: FilterExpr,
  searchOn: string[],
  sort: string | undefined,
): Promise<SearchResultPage> {
  const q = renderQ(branch)
  const rendered = render(filter)
  const order = req.sort
    ? [`${sort}:${req.sort.order === 'DESCENDING' ? 'desc' : 'asc'}`, `${ATTR.urn}:asc`]
    : branch.texts.length === 0
      ? [`${ATTR.urn}:asc`]
      : undefined
  const window = pageWindow(req.start, req.count)
  const queries = window.pages.map((p, i) => ({
    q,
    ...(q ? { attributesToSearchOn: searchOn, matchingStrategy: 'all' as const } : {}),
    ...(rendered ? { filter: rendered } : {}),
    ...(order ? { sort: order } : {}),
    ...(i === 0 && req.facets.length > 0 ? { facets: req.facets.map((f) => facetAttr(f.field)) } : {}),
    attributesToRetrieve: HIT_ATTRIBUTES,
    page: p.page,
    hitsPerPage: p.hitsPerPage,
  }))
  const results: PagedResponse[] =
    queries.length === 1
      ? [await ctx.backend.search(queries[0] as (typeof queries)[0])]
      : await ctx.backend.multiSearch(queries)
  const head = results[0] as PagedResponse
  const docs = results
    .flatMap((r) => r.hits as unknown as HitDocument[])
    .slice(window.skip, window.skip + window.take)
  return {
    total: head.totalHits,
    hits: docs.map((d) => toSearchHit(d, req.query, ctx.schema)),
    facets: await decodeFacets(
      head.facetDistribution,
      req.facets,
      req.maxFacetValues,
      ctx.backend,
      ctx.catalog,
    ),
  }
}

interface UnionHit {
  readonly pk: string
  readonly urn: string
  terms: number
  score: number
  sortValues: unknown[]
}

async function union(
  ctx: QueryContext,
  req: SearchRequest,
  branches: ReadonlyArray<{ branch: Branch; filter: FilterExpr }>,
  searchOn: string[],
  sort: string | undefined,
): Promise<SearchResultPage> {
  const results = await ctx.backend.multiSearch(
    branches.map(({ branch, filter }) => {
      const q = renderQ(branch)
      const rendered = render(filter)
      return {
        q,
        ...(q ? { attributesToSearchOn: searchOn, matchingStrategy: 'all' as const } : {}),
        ...(rendered ? { filter: rendered } : {}),
        attributesToRetrieve: [ATTR.pk, ATTR.urn, ...(sort ? [sort] : [])],
        showRankingScore: true,
        page: 1,
        hitsPerPage: UNION_HITS,
      }
    }),
  )
  const merged = new Map<string, UnionHit>()
  for (const r of results) {
    if (r.totalHits > r.hits.length)
      ctx.warn(
        { totalHits: r.totalHits, read: r.hits.length },
        'search alternative truncated: totals are a lower bound',
      )
    for (const h of r.hits) {
      const pk = String(h[ATTR.pk])
      const seen = merged.get(pk)
      const score = typeof h._rankingScore === 'number' ? h._rankingScore : 0
      if (seen) {
        seen.terms++
        seen.score += score
      } else {
        const raw = sort ? h[sort] : undefined
        const sortValues = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
        merged.set(pk, { pk, urn: String(h[ATTR.urn]), terms: 1, score, sortValues })
      }
    }
  }
  const desc = req.sort?.order === 'DESCENDING'
  const ordered = [...merged.values()].sort(
    (a, b) =>
      (req.sort ? compareSortValues(a.sortValues, b.sortValues, desc) : 0) ||
      b.terms - a.terms ||
      b.score - a.score ||
      (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0),
  )
  const page = ordered.slice(req.start, req.start + req.count)
  const [facets, hits] = await Promise.all([
    unionFacets(ctx, req, ordered),
    page.length > 0 ? pageHits(ctx, req, page) : Promise.resolve([]),
  ])
  return { total: ordered.length, hits, facets }
}

async function unionFacets(ctx: QueryContext, req: SearchRequest, hits: readonly UnionHit[]) {
  if (req.facets.length === 0 || hits.length === 0) return []
  const filter = render(
    inList(
      ATTR.pk,
      hits.map((h) => h.pk),
    ),
  )
  const res = await ctx.backend.search({
    q: '',
    hitsPerPage: 0,
    facets: req.facets.map((f) => facetAttr(f.field)),
    ...(filter ? { filter } : {}),
  })
  return decodeFacets(res.facetDistribution, req.facets, req.maxFacetValues, ctx.backend, ctx.catalog)
}

async function pageHits(
  ctx: QueryContext,
  req: SearchRequest,
  page: readonly UnionHit[],
): Promise<SearchHit[]> {
  const filter = render(
    inList(
      ATTR.pk,
      page.map((h) => h.pk),
    ),
  )
  const res = await ctx.backend.documents<HitDocument & Record<string, unknown>>({
    fields: HIT_ATTRIBUTES as never,
    limit: page.length,
    ...(filter ? { filter } : {}),
  })
  const byUrn = new Map(res.results.map((d) => [d.urn, d]))
  return page.flatMap((h) => {
    const doc = byUrn.get(h.urn)
    return doc ? [toSearchHit(doc, req.query, ctx.schema)] : []
  })
}

/**
 * Meilisearch's order of sort values: documents without one last; numbers before strings;
 * an array sorts by its smallest value ascending, its largest descending.
 */
export function compareSortValues(a: readonly unknown[], b: readonly unknown[], desc: boolean): number {
  if (a.length === 0 || b.length === 0) return a.length === 0 ? (b.length === 0 ? 0 : 1) : -1
  const pick = (values: readonly unknown[]) =>
    [...values].sort((x, y) => compareValues(x, y))[desc ? values.length - 1 : 0]
  const c = compareValues(pick(a), pick(b))
  return desc ? -c : c
}

function compareValues(x: unknown, y: unknown): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y
  if (typeof x === 'number') return -1
  if (typeof y === 'number') return 1
  const sx = String(x)
  const sy = String(y)
  return sx < sy ? -1 : sx > sy ? 1 : 0
}

/** The searchable attributes of the entity types' default fields. */
export function searchAttributes(ctx: QueryContext, entityTypes: readonly string[]): string[] {
  const fields = new Set<string>()
  for (const type of entityTypes)
    for (const f of ctx.schema.entity(type)?.defaultFields ?? []) if (ctx.catalog.isAnalysed(f)) fields.add(f)
  return [...fields].map(textAttr)
}

/** The sortable attribute of the request's sort field (free-text fields are not sortable). */
function sortAttribute(ctx: QueryContext, req: SearchRequest): string | undefined {
  if (!req.sort) return undefined
  const field = req.sort.field
  if (field === ENTITY_TYPE_FIELD) return ATTR.entityType
  if (field === URN_FIELD) return ATTR.urn
  if (!ctx.catalog.isExact(field))
    throw new InvalidInputError(
      `Cannot sort by '${field}': it is a free-text field, which the Meilisearch index does not sort by`,
    )
  return field
}
