import {
  matchedFields,
  mergeContributions,
  type SearchHit,
  type SearchRequest,
  type SearchResultPage,
  type SearchSchema,
} from '@catalog/search'
import { fieldHits } from './field-hits.js'
import { concatIds } from './id-reads.js'
import { QueryCompiler, type QueryScope, type Sql } from './query-compiler.js'
import type { QueryContext } from './query-context.js'
import { rankedPage } from './ranked-page.js'
import { memoizedLookups } from './word-lookups.js'
import { rankWords } from './word-ranker.js'

/** The documents of the scope, soft-deleted ones left out unless asked for, and the filter. */
export function scopeWhere(
  ctx: QueryContext,
  entityTypes: readonly string[],
  includeRemoved: boolean,
  filter: SearchRequest['filter'],
): { sql: string; params: unknown[] } {
  const f = ctx.filter(filter)
  const types = entityTypes.map(() => '?').join(', ')
  return {
    sql: `d.entity_type IN (${types})${includeRemoved ? '' : ' AND d.removed = 0'} AND ${f.sql}`,
    params: [...entityTypes, ...f.params],
  }
}

/** Default fields of the searched entity types, each with its best boost. */
export function queryScope(schema: SearchSchema, entityTypes: readonly string[]): QueryScope {
  const defaultFields = new Map<string, number>()
  for (const type of entityTypes) {
    const spec = schema.entity(type)
    for (const name of spec?.defaultFields ?? []) {
      const boost = spec?.fields.get(name)?.boost ?? 1
      defaultFields.set(name, Math.max(defaultFields.get(name) ?? 0, boost))
    }
  }
  return { entityTypes, defaultFields }
}

/**
 * Runs a search. A query without words (`*`, filters only) or with a sort yields every hit of
 * the scope in order (sort key if asked, then more matched clauses, then relevance; `*` in URN
 * order): its total is exact and its facets count every hit.
 *
 * A text query ranked by relevance works as Elasticsearch's default `track_total_hits` does for
 * DataHub: it reads its matches in index order, without scoring them, up to the cap (10,000),
 * so `total` is exact below the cap and the cap itself (meaning "at least") above it, and the
 * facets count exactly those counted hits. The `rankWindow` counted hits with the lowest ids
 * (by default all of them) are scored and come first, by relevance; any other counted hits
 * follow in id order. With no more matches than the window, ranking is exact. Queries of words
 * only are scored by {@link rankWords} (field boost tiers, no `bm25()`); others (fields, NOT)
 * by FTS5's `bm25()` with the scope's boosts; only the best `start + count` rows are picked
 * ({@link rankedPage}). A lone `field:value` ranks in id order, its hits read from the facet
 * values' posting lists when it can ({@link fieldHits}). The page's documents are then read, and
 * the facets counted from the in-memory facet values.
 */
export function searchQuery(
  context: QueryContext,
  schema: SearchSchema,
  req: SearchRequest,
): SearchResultPage {
  const ctx: QueryContext = { ...context, vocabulary: memoizedLookups(context.vocabulary) }
  const scope = queryScope(schema, req.entityTypes)
  const compiler = new QueryCompiler(ctx, scope)
  const q = compiler.compile(req.query)
  const where = scopeWhere(ctx, req.entityTypes, req.includeRemoved, req.filter)
  const sort = sortOrder(ctx, req)
  let ids: number[]
  let pageIds: number[] | undefined
  if (q && !req.sort) {
    ids =
      (req.query.kind === 'field' ? fieldHits(ctx, req, req.query) : undefined) ??
      countedHits(ctx, req, where, scope)
    if (req.query.kind !== 'field') {
      // (Every match of a lone `field:value` scores the same: id order.) The counted hits with
      // the lowest ids up to the window are scored: reads stop at its last id. They already
      // passed the scope and filter, so the scored rows are not joined again.
      const counted = ids
      const bound = counted[Math.min(ctx.rankWindow, counted.length) - 1] ?? 0
      const scoring = new QueryCompiler(ctx, scope, true, bound)
      const countedSet = new Set(counted)
      const has = (id: number) => countedSet.has(id)
      const ranked =
        rankWords(ctx, scoring, req.query, bound, req.start + req.count, has) ??
        boundedRows(ctx, scoring, req)
      pageIds = rankedPage(ranked, counted, has, req.start, req.count)
    }
  } else {
    ids = (
      q
        ? ctx
            .statement(
              `SELECT q.doc_id FROM (${q.sql}) q JOIN docs d ON d.id = q.doc_id ${sort.join} WHERE ${where.sql} ORDER BY ${sort.sql}q.terms DESC, q.score DESC, q.doc_id`,
            )
            .pluck()
            .all(...q.params, ...sort.params, ...where.params)
        : ctx
            .statement(`SELECT d.id FROM docs d ${sort.join} WHERE ${where.sql} ORDER BY ${sort.sql}d.urn`)
            .pluck()
            .all(...sort.params, ...where.params)
    ) as number[]
  }
  pageIds ??= ids.slice(req.start, req.start + req.count)
  return {
    total: ids.length,
    hits: pageIds.length > 0 ? page(ctx, schema, req, compiler, pageIds) : [],
    facets:
      req.facets.length > 0 && ids.length > 0 ? ctx.facets.count(ids, req.facets, req.maxFacetValues) : [],
  }
}

/**
 * The matches with the lowest ids, up to the cap, ascending, unscored. Read in growing id
 * ranges (sized from the density seen) until the cap is reached, so a broad match reads little
 * more than the cap.
 */
export function countedHits(ctx: QueryContext, req: SearchRequest, where: Sql, scope: QueryScope): number[] {
  const maxId = (ctx.statement('SELECT max(id) FROM docs').pluck().get() as number | null) ?? 0
  const whole = new QueryCompiler(ctx, scope, false, maxId)
  if (whole.streams(req.query)) return matchIds(ctx, whole, req, where, ctx.totalHitsCap)
  let bound = Math.max(1024, Math.ceil(maxId / 64))
  for (;;) {
    const last = bound >= maxId
    const ids = matchIds(ctx, new QueryCompiler(ctx, scope, false, last ? maxId : bound), req, where)
    if (ids.length >= ctx.totalHitsCap || last) return ids.sort((a, b) => a - b).slice(0, ctx.totalHitsCap)
    // Next range: where the density seen so far reaches the cap, at least twice this one.
    bound = Math.max(bound * 2, Math.ceil((bound * ctx.totalHitsCap * 1.25) / Math.max(ids.length, 1)))
  }
}

function matchIds(
  ctx: QueryContext,
  compiler: QueryCompiler,
  req: SearchRequest,
  where: Sql,
  limit = -1,
): number[] {
  const q = compiler.compile(req.query)
  return q ? scopedIds(ctx, req, where, q, limit) : []
}

/**
 * The ids (`doc_id`) of a query's rows that pass the request's scope and filter, at most
 * `limit` (-1: all; with a limit the query must stream in id order). Only ids cross into
 * JavaScript, as one string ({@link concatIds}), and without a filter the scope is checked in
 * memory, in chunks of `limit` ids, instead of reading each match's document.
 */
export function scopedIds(
  ctx: QueryContext,
  req: Pick<SearchRequest, 'entityTypes' | 'includeRemoved' | 'filter'>,
  where: Sql,
  q: Sql,
  limit = -1,
): number[] {
  if (req.filter.or.length > 0)
    return concatIds(
      ctx.statement,
      `SELECT q.doc_id FROM (${q.sql}) q CROSS JOIN docs d ON d.id = q.doc_id WHERE ${where.sql} LIMIT ?`,
      [...q.params, ...where.params, limit],
    )
  const inScope = ctx.facets.scope(req.entityTypes, req.includeRemoved)
  if (limit < 0) return concatIds(ctx.statement, `SELECT doc_id FROM (${q.sql})`, q.params).filter(inScope)
  const out: number[] = []
  for (let after = -1; ; ) {
    const ids = concatIds(ctx.statement, `SELECT doc_id FROM (${q.sql}) WHERE doc_id > ? LIMIT ?`, [
      ...q.params,
      after,
      limit,
    ])
    for (const id of ids) {
      if (!inScope(id)) continue
      out.push(id)
      if (out.length === limit) return out
    }
    if (ids.length < limit) return out
    after = ids[ids.length - 1] as number
  }
}

/** The rows (`doc_id`, `terms`, `score`) of a compiled query (the caller keeps those in scope). */
export function boundedRows(
  ctx: QueryContext,
  compiler: QueryCompiler,
  req: SearchRequest,
): Array<[number, number, number]> {
  const q = compiler.compile(req.query)
  if (!q) return []
  return ctx
    .statement(q.sql)
    .raw()
    .all(...q.params) as Array<[number, number, number]>
}

/**
 * The ORDER BY prefix of a sort criterion (empty when not sorting; missing values last), and the
 * join it reads (after `docs d`).
 */
function sortOrder(ctx: QueryContext, req: SearchRequest): { join: string; sql: string; params: unknown[] } {
  if (!req.sort) return { join: '', sql: '', params: [] }
  const dir = req.sort.order === 'DESCENDING' ? 'DESC' : 'ASC'
  const id = ctx.isExact(req.sort.field) ? ctx.fieldId(req.sort.field) : undefined
  if (id !== undefined) {
    // Each document's least (greatest) value of the field, numbers before text, read once for
    // all from the field's rows of `exact` (keyed by field and value, not by document).
    return {
      join: `LEFT JOIN (SELECT doc_id, ${dir === 'ASC' ? 'min' : 'max'}(coalesce(num, value)) AS k FROM exact WHERE field = ? GROUP BY doc_id) s ON s.doc_id = d.id`,
      sql: `s.k IS NULL, s.k ${dir}, `,
      params: [id],
    }
  }
  const paths = ctx.jsonPaths(req.sort.field).map((p) => `json_extract(d.parts, '${p.replace(/'/g, '')}[0]')`)
  const key = paths.length > 1 ? `coalesce(${paths.join(', ')})` : (paths[0] ?? 'NULL')
  return { join: '', sql: `${key} IS NULL, ${key} ${dir}, `, params: [] }
}

export function page(
  ctx: QueryContext,
  schema: SearchSchema,
  req: SearchRequest,
  compiler: QueryCompiler,
  ids: readonly number[],
): SearchHit[] {
  const docs = new Map(
    (
      ctx
        .statement(
          'SELECT d.id, d.urn, d.entity_type, d.parts FROM docs d WHERE d.id IN (SELECT value FROM json_each(?))',
        )
        .raw()
        .all(JSON.stringify(ids)) as Array<[number, string, string, string]>
    ).map((r) => [r[0], r]),
  )
  const hits: SearchHit[] = []
  for (const id of ids) {
    const doc = docs.get(id)
    if (!doc) continue
    const [, urn, entityType, parts] = doc
    hits.push({
      urn,
      entityType,
      matchedFields: matchedFields(
        mergeContributions(ctx.codec.decode(parts)),
        req.query,
        schema.entity(entityType)?.defaultFields ?? [],
        (w) => compiler.variants.get(w) ?? [],
      ),
    })
  }
  return hits
}
