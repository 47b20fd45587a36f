import {
  BROWSE_V2_DELIMITER,
  type BrowseV2Group,
  type BrowseV2Request,
  type BrowseV2ResultPage,
  browsePathV2Node,
  MAX_BROWSE_V2_GROUPS,
  type SearchSchema,
} from '@catalog/search'
import { QueryCompiler } from './query-compiler.js'
import type { QueryContext } from './query-context.js'
import { queryScope, scopeWhere } from './search-query.js'

const D = BROWSE_V2_DELIMITER
/** The character after the delimiter: the exclusive upper bound of values starting with it. */
const AFTER_D = String.fromCharCode(D.charCodeAt(0) + 1)

/**
 * browseV2 as DataHub's `ESBrowseDAO.browseV2`: the documents of the scope matching the query
 * and filter whose `browsePathV2` (`␟id1␟id2…`) lies strictly under the browsed node, grouped
 * by their next entry, each group with its document count and whether some path goes deeper;
 * groups by count descending then name, at most {@link MAX_BROWSE_V2_GROUPS}, paged by
 * `start`/`count`; `totalNumEntities` counts the documents under the node.
 */
export function browseV2Query(
  ctx: QueryContext,
  schema: SearchSchema,
  req: BrowseV2Request,
): BrowseV2ResultPage {
  const field = ctx.fieldId('browsePathV2')
  if (field === undefined) return { groups: [], numGroups: 0, totalNumEntities: 0 }
  const prefix = `${browsePathV2Node(req.path)}${D}`
  // SQLite counts characters (code points), not UTF-16 units.
  const chars = [...prefix].length
  const after = chars + 1
  const where = scopeWhere(ctx, req.entityTypes, req.includeRemoved, req.filter)
  const q = new QueryCompiler(ctx, queryScope(schema, req.entityTypes)).compile(req.query)
  const rest = `substr(e.value, ${after})`
  const sql = `WITH hits AS (
    SELECT DISTINCT e.doc_id AS id,
      CASE instr(${rest}, '${D}') WHEN 0 THEN ${rest} ELSE substr(${rest}, 1, instr(${rest}, '${D}') - 1) END AS name,
      instr(${rest}, '${D}') > 0 AS deeper
    FROM exact e JOIN docs d ON d.id = e.doc_id
    WHERE e.field = ? AND e.value >= ? COLLATE NOCASE AND e.value < ? COLLATE NOCASE
      AND substr(e.value, 1, ?) = ? AND length(e.value) > ? AND ${where.sql}
      ${q ? `AND d.id IN (SELECT q.doc_id FROM (${q.sql}) q)` : ''}
  )
  SELECT name, count(DISTINCT id) AS count, max(deeper) AS sub,
    (SELECT count(DISTINCT id) FROM hits WHERE name <> '') AS total
  FROM hits WHERE name <> '' GROUP BY name ORDER BY count DESC, name LIMIT ${MAX_BROWSE_V2_GROUPS}`
  const params = [
    field,
    prefix,
    `${prefix.slice(0, -1)}${AFTER_D}`,
    chars,
    prefix,
    chars,
    ...where.params,
    ...(q?.params ?? []),
  ]
  const rows = ctx
    .statement(sql)
    .raw()
    .all(...params) as Array<[string, number, number, number]>
  const all: BrowseV2Group[] = rows.map(([name, count, sub]) => ({ name, count, hasSubGroups: sub === 1 }))
  return {
    groups: all.slice(req.start, req.start + req.count),
    numGroups: all.length,
    totalNumEntities: rows[0]?.[3] ?? 0,
  }
}
