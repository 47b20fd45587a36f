import {
  type DocumentFields,
  matchedFields,
  mergeContributions,
  type SearchHit,
  type SearchRequest,
  type SearchResultPage,
  type SearchSchema,
} from '@catalog/search'
import { QueryCompiler, type QueryScope } from './query-compiler.js'
import type { QueryContext } from './sqlite-search-index.js'

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
 * Runs a search: one statement yields every hit of the scope in rank order (sort key if
 * asked, then more matched clauses, then relevance; `*` in URN order), as document ids only;
 * the page's documents are then read, and the facets counted over all hits from the
 * in-memory facet values.
 */
export function searchQuery(ctx: QueryContext, schema: SearchSchema, req: SearchRequest): SearchResultPage {
  const compiler = new QueryCompiler(ctx, queryScope(schema, req.entityTypes))
  const q = compiler.compile(req.query)
  const where = scopeWhere(ctx, req.entityTypes, req.includeRemoved, req.filter)
  const sort = sortOrder(ctx, req)
  const ids = (
    q
      ? ctx
          .statement(
            `SELECT q.doc_id FROM (${q.sql}) q JOIN docs d ON d.id = q.doc_id WHERE ${where.sql} ORDER BY ${sort.sql}q.terms DESC, q.score DESC, q.doc_id`,
          )
          .pluck()
          .all(...q.params, ...where.params, ...sort.params)
      : ctx
          .statement(`SELECT d.id FROM docs d WHERE ${where.sql} ORDER BY ${sort.sql}d.urn`)
          .pluck()
          .all(...where.params, ...sort.params)
  ) as number[]
  const pageIds = ids.slice(req.start, req.start + req.count)
  return {
    total: ids.length,
    hits: pageIds.length > 0 ? page(ctx, schema, req, compiler, pageIds) : [],
    facets:
      req.facets.length > 0 && ids.length > 0 ? ctx.facets.count(ids, req.facets, req.maxFacetValues) : [],
  }
}

/** The ORDER BY prefix of a sort criterion (empty when not sorting); missing values last. */
function sortOrder(ctx: QueryContext, req: SearchRequest): { sql: string; params: unknown[] } {
  if (!req.sort) return { sql: '', params: [] }
  const dir = req.sort.order === 'DESCENDING' ? 'DESC' : 'ASC'
  const id = ctx.isExact(req.sort.field) ? ctx.fieldId(req.sort.field) : undefined
  if (id !== undefined) {
    const key = `(SELECT ${dir === 'ASC' ? 'min' : 'max'}(coalesce(e.num, e.value)) FROM exact e WHERE e.doc_id = d.id AND e.field = ?)`
    return { sql: `${key} IS NULL, ${key} ${dir}, `, params: [id, id] }
  }
  const paths = ctx.jsonPaths(req.sort.field).map((p) => `json_extract(d.parts, '${p.replace(/'/g, '')}[0]')`)
  const key = paths.length > 1 ? `coalesce(${paths.join(', ')})` : (paths[0] ?? 'NULL')
  return { sql: `${key} IS NULL, ${key} ${dir}, `, params: [] }
}

function page(
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
        mergeContributions(JSON.parse(parts) as Record<string, DocumentFields>),
        req.query,
        schema.entity(entityType)?.defaultFields ?? [],
        (w) => compiler.variants.get(w) ?? [],
      ),
    })
  }
  return hits
}
