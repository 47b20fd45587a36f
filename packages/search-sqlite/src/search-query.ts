import {
  type DocumentFields,
  ENTITY_TYPE_FIELD,
  type FacetResult,
  matchedFields,
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
 * Runs a search: the matching documents of the scope go to a temporary table once, then the
 * page (more matched clauses first, then relevance, then URN), the total and the facet counts
 * are read from it.
 */
export function searchQuery(ctx: QueryContext, schema: SearchSchema, req: SearchRequest): SearchResultPage {
  const compiler = new QueryCompiler(ctx, queryScope(schema, req.entityTypes))
  const q = compiler.compile(req.query)
  const where = scopeWhere(ctx, req.entityTypes, req.includeRemoved, req.filter)
  ctx.statement('DELETE FROM temp.hits').run()
  if (q) {
    ctx
      .statement(
        `INSERT INTO temp.hits (doc_id, terms, score) SELECT q.doc_id, q.terms, q.score FROM (${q.sql}) q JOIN docs d ON d.id = q.doc_id WHERE ${where.sql}`,
      )
      .run(...q.params, ...where.params)
  } else {
    ctx
      .statement(`INSERT INTO temp.hits (doc_id, terms, score) SELECT d.id, 0, 0.0 FROM docs d WHERE ${where.sql}`)
      .run(...where.params)
  }
  const total = (ctx.statement('SELECT count(*) AS n FROM temp.hits').get() as { n: number }).n
  const hits = total > req.start && req.count > 0 ? page(ctx, schema, req, compiler) : []
  const facets = req.facets.length > 0 && total > 0 ? facetCounts(ctx, req) : []
  return { total, hits, facets }
}

function page(ctx: QueryContext, schema: SearchSchema, req: SearchRequest, compiler: QueryCompiler): SearchHit[] {
  const params: unknown[] = []
  let order = 'h.terms DESC, h.score DESC, d.urn'
  if (req.sort) {
    const sortId = ctx.isExact(req.sort.field) ? ctx.fieldId(req.sort.field) : undefined
    let key = `json_extract(d.doc, '$."${req.sort.field.replace(/["'\\]/g, '')}"[0]')`
    if (sortId !== undefined) {
      key = '(SELECT coalesce(e.num, e.value) FROM exact e WHERE e.doc_id = h.doc_id AND e.field = ? ORDER BY 1 LIMIT 1)'
      params.push(sortId, sortId)
    }
    const dir = req.sort.order === 'DESCENDING' ? 'DESC' : 'ASC'
    order = `${key} IS NULL, ${key} ${dir}, ${order}`
  }
  const rows = ctx
    .statement(
      `SELECT d.urn, d.entity_type, d.doc, h.score FROM temp.hits h JOIN docs d ON d.id = h.doc_id ORDER BY ${order} LIMIT ? OFFSET ?`,
    )
    .all(...params, req.count, req.start) as Array<{ urn: string; entity_type: string; doc: string; score: number }>
  return rows.map((r) => {
    return {
      urn: r.urn,
      entityType: r.entity_type,
      score: r.score,
      matchedFields: matchedFields(
        JSON.parse(r.doc) as DocumentFields,
        req.query,
        schema.entity(r.entity_type)?.defaultFields ?? [],
        (w) => compiler.variants.get(w) ?? [],
      ),
    }
  })
}

function facetCounts(ctx: QueryContext, req: SearchRequest): FacetResult[] {
  const counts = new Map<string, Map<string, number>>()
  const ids = new Map<number, string>()
  for (const f of req.facets) {
    if (f.field === ENTITY_TYPE_FIELD) continue
    const id = ctx.fieldId(f.field)
    if (id !== undefined) ids.set(id, f.field)
  }
  if (ids.size > 0) {
    const rows = ctx
      .statement(
        `SELECT e.field, e.value, count(*) AS n FROM temp.hits h JOIN exact e ON e.doc_id = h.doc_id WHERE e.field IN (${[...ids.keys()].map(() => '?').join(', ')}) GROUP BY e.field, e.value`,
      )
      .raw()
      .all(...ids.keys()) as Array<[number, string, number]>
    for (const [fid, value, n] of rows) {
      const name = ids.get(fid) as string
      const m = counts.get(name) ?? new Map<string, number>()
      m.set(value, n)
      counts.set(name, m)
    }
  }
  if (req.facets.some((f) => f.field === ENTITY_TYPE_FIELD)) {
    const rows = ctx
      .statement(
        'SELECT d.entity_type, count(*) AS n FROM temp.hits h JOIN docs d ON d.id = h.doc_id GROUP BY d.entity_type',
      )
      .raw()
      .all() as Array<[string, number]>
    counts.set(ENTITY_TYPE_FIELD, new Map(rows))
  }
  const out: FacetResult[] = []
  for (const f of req.facets) {
    const m = counts.get(f.field)
    if (!m || m.size === 0) continue
    const values = [...m]
      .map(([value, count]) => ({ value, count }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
      .slice(0, req.maxFacetValues)
    out.push({ field: f.field, displayName: f.displayName, values })
  }
  return out
}
