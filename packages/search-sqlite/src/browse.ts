import type { BrowseGroup, BrowseRequest, BrowseResultPage } from '@catalog/search'
import { browseParent } from './ddl.js'
import type { QueryContext } from './query-context.js'
import { scopeWhere } from './search-query.js'

/**
 * Browse as DataHub's `ESBrowseDAO.browse`: the documents whose browse path equals the path,
 * the next-level groups under it with document counts, and the number of documents under it.
 * Groups come first in paging: a page of `limit` elements from `start` takes groups
 * `[start, start+limit)`, then entities from `max(start - numGroups, 0)`.
 */
export function browseQuery(ctx: QueryContext, req: BrowseRequest): BrowseResultPage {
  const field = ctx.fieldId('browsePaths')
  if (field === undefined)
    return { entities: [], groups: [], numEntities: 0, numGroups: 0, totalNumEntities: 0 }
  const base = req.path.replace(/\/+$/, '')
  const prefix = `${base}/`
  const where = scopeWhere(ctx, [req.entityType], req.includeRemoved, req.filter)

  const counted = req.filter.or.length === 0 && !req.includeRemoved
  const under = `FROM exact e JOIN docs d ON d.id = e.doc_id WHERE e.field = ? AND e.value >= ? COLLATE NOCASE AND e.value < ? COLLATE NOCASE AND substr(e.value, 1, ?) = ? AND length(e.value) > ? AND ${where.sql}`
  const underParams = [field, prefix, `${base}0`, prefix.length, prefix, prefix.length, ...where.params]
  const segment = `CASE instr(substr(e.value, ${prefix.length + 1}), '/') WHEN 0 THEN substr(e.value, ${prefix.length + 1}) ELSE substr(e.value, ${prefix.length + 1}, instr(substr(e.value, ${prefix.length + 1}), '/') - 1) END`
  const allGroups = counted
    ? countedGroups(ctx, req.entityType, base)
    : (
        ctx
          .statement(
            `SELECT seg AS name, count(DISTINCT doc_id) AS count FROM (SELECT e.doc_id, ${segment} AS seg ${under}) WHERE seg <> '' GROUP BY seg ORDER BY count DESC, name`,
          )
          .all(...underParams) as BrowseGroup[]
      ).map((g) => ({ name: g.name, count: g.count }))
  const totalNumEntities = counted
    ? ((ctx
        .statement('SELECT below FROM browse_nodes WHERE entity_type = ? AND parent = ? AND path = ?')
        .pluck()
        .get(req.entityType, browseParent(base), base) as number | undefined) ?? 0)
    : (ctx.statement(`SELECT count(DISTINCT e.doc_id) AS n ${under}`).get(...underParams) as { n: number }).n

  const exactly = `FROM exact e JOIN docs d ON d.id = e.doc_id WHERE e.field = ? AND e.value COLLATE NOCASE IN (?, ?) AND e.value IN (?, ?) AND ${where.sql}`
  const at = [base === '' ? '/' : base, prefix]
  const exactlyParams = [field, ...at, ...at, ...where.params]
  const numEntities = (
    ctx.statement(`SELECT count(DISTINCT d.id) AS n ${exactly}`).get(...exactlyParams) as { n: number }
  ).n
  const numGroups = allGroups.length
  const groups = allGroups.slice(req.start, req.start + req.limit)
  const entityFrom = Math.max(req.start - numGroups, 0)
  const entitySize = Math.min(Math.max(req.start + req.limit - numGroups, 0), req.limit)
  const entities =
    entitySize > 0
      ? (
          ctx
            .statement(`SELECT DISTINCT d.urn ${exactly} ORDER BY d.urn LIMIT ? OFFSET ?`)
            .raw()
            .all(...exactlyParams, entitySize, entityFrom) as Array<[string]>
        ).map((r) => r[0])
      : []
  return { entities, groups, numEntities, numGroups, totalNumEntities }
}

/** Groups from the maintained browse counts (no filter, soft-deleted documents left out). */
function countedGroups(ctx: QueryContext, entityType: string, base: string): BrowseGroup[] {
  const rows = ctx
    .statement(
      "SELECT path, docs FROM browse_nodes WHERE entity_type = ? AND parent = ? AND path <> '' AND docs > 0 ORDER BY docs DESC, path",
    )
    .raw()
    .all(entityType, base) as Array<[string, number]>
  return rows.map(([path, count]) => ({ name: path.slice(base.length + 1), count }))
}
