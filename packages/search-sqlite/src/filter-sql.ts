import {
  BROWSE_V2_DELIMITER,
  ENTITY_TYPE_FIELD,
  type NormalizedCriterion,
  type NormalizedFilter,
  REMOVED_FIELD,
  URN_FIELD,
} from '@catalog/search'
import type { Sql } from './query-compiler.js'

const RANGE_OPS: Readonly<Record<string, string>> = {
  GREATER_THAN: '>',
  GREATER_THAN_OR_EQUAL_TO: '>=',
  LESS_THAN: '<',
  LESS_THAN_OR_EQUAL_TO: '<=',
}

/** Escapes LIKE wildcards (`\` is the escape character). */
const likeEscape = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`)

/**
 * Compiles a filter to a predicate over the documents table aliased `d`: OR of AND groups;
 * each criterion matches when any of its expanded fields has a value meeting the condition
 * (any of its values), `negated` inverts it. `resolveEntityType` maps `_entityType` values
 * (`dataset`, `DATASET`) to entity names.
 */
export function filterSql(
  filter: NormalizedFilter,
  fieldId: (name: string) => number | undefined,
  isExact: (name: string) => boolean,
  resolveEntityType: (value: string) => string | undefined,
  jsonPaths: (field: string) => readonly string[],
  isBrowsePathV2: (field: string) => boolean = () => false,
): Sql {
  if (filter.or.length === 0) return { sql: '1', params: [] }
  const params: unknown[] = []
  const groups = filter.or.map((group) => {
    const parts = group.map((c) => {
      const s = criterionSql(c, fieldId, isExact, resolveEntityType, jsonPaths, isBrowsePathV2)
      params.push(...s.params)
      return s.sql
    })
    return `(${parts.join(' AND ')})`
  })
  return { sql: `(${groups.join(' OR ')})`, params }
}

function criterionSql(
  c: NormalizedCriterion,
  fieldId: (name: string) => number | undefined,
  isExact: (name: string) => boolean,
  resolveEntityType: (value: string) => string | undefined,
  jsonPaths: (field: string) => readonly string[],
  isBrowsePathV2: (field: string) => boolean,
): Sql {
  const not = c.negated ? 'NOT ' : ''
  if (c.field === ENTITY_TYPE_FIELD) {
    if (c.condition === 'EXISTS' || c.condition === 'IS_NULL')
      return { sql: (c.condition === 'EXISTS') !== c.negated ? '1' : '0', params: [] }
    const names = c.values.map((v) => resolveEntityType(v) ?? `\u0000${v}`)
    return { sql: `${not}(d.entity_type IN (${names.map(() => '?').join(', ')}))`, params: names }
  }
  if (
    c.field === REMOVED_FIELD &&
    (c.condition === 'EQUAL' || c.condition === 'IEQUAL' || c.condition === 'IN')
  ) {
    const flags = c.values.map((v) => (v.toLowerCase() === 'true' ? 1 : 0))
    return { sql: `${not}(d.removed IN (${flags.map(() => '?').join(', ')}))`, params: flags }
  }
  if (c.field === URN_FIELD) {
    if (c.condition === 'EXISTS' || c.condition === 'IS_NULL')
      return { sql: (c.condition === 'EXISTS') !== c.negated ? '1' : '0', params: [] }
    const v = valuePredicate(c, 'd.urn', 'NULL')
    return { sql: `${not}(${v.sql})`, params: v.params }
  }
  // Exact fields are matched in the `exact` table; free-text fields in the stored contributions.
  // A browse path v2 (`␟a␟b`) matches EQUAL as DataHub's path-hierarchy field does: the node
  // itself and every path under it.
  const exact = c.fields.filter(isExact)
  const equal = c.condition === 'EQUAL' || c.condition === 'IN'
  const idsOf = (fields: readonly string[]) =>
    fields.map(fieldId).filter((id): id is number => id !== undefined)
  const nodeIds = equal ? idsOf(exact.filter(isBrowsePathV2)) : []
  const ids = idsOf(equal ? exact.filter((f) => !isBrowsePathV2(f)) : exact)
  const text = c.fields.filter((f) => !isExact(f))
  const found: string[] = []
  const params: unknown[] = []
  const exists = c.condition === 'EXISTS' || c.condition === 'IS_NULL'
  const v = exists ? { sql: '1', params: [] } : valuePredicate(c, 'value', 'num')
  if (nodeIds.length > 0) {
    const under = c.values.map(() => '(value = ? OR substr(value, 1, ?) = ?)').join(' OR ')
    found.push(
      `d.id IN (SELECT doc_id FROM exact WHERE field IN (${nodeIds.map(() => '?').join(', ')}) AND (${under}))`,
    )
    params.push(...nodeIds, ...c.values.flatMap((n) => [n, [...n].length + 1, `${n}${BROWSE_V2_DELIMITER}`]))
  }
  if (ids.length > 0) {
    found.push(
      `d.id IN (SELECT doc_id FROM exact WHERE field IN (${ids.map(() => '?').join(', ')}) AND (${v.sql}))`,
    )
    params.push(...ids, ...v.params)
  }
  if (text.length > 0) {
    const jv = exists ? { sql: '1', params: [] } : valuePredicate(c, 'j.value', 'NULL')
    for (const path of text.flatMap(jsonPaths)) {
      found.push(`EXISTS (SELECT 1 FROM json_each(d.parts, ?) j WHERE ${jv.sql})`)
      params.push(path, ...jv.params)
    }
  }
  const any = found.length > 0 ? `(${found.join(' OR ')})` : '0'
  const positive = c.condition !== 'IS_NULL'
  return { sql: positive !== c.negated ? any : `NOT ${any}`, params }
}

/** The condition on one column (`value`, or `d.urn`), any of the criterion's values. */
function valuePredicate(c: NormalizedCriterion, col: string, numCol: string): Sql {
  const parts: string[] = []
  const params: unknown[] = []
  if (c.condition === 'EQUAL' || c.condition === 'IN') {
    // The NOCASE list lets SQLite use the (field, value NOCASE) index; the second keeps it exact.
    const marks = c.values.map(() => '?').join(', ')
    return {
      sql: `${col} COLLATE NOCASE IN (${marks}) AND ${col} IN (${marks})`,
      params: [...c.values, ...c.values],
    }
  }
  for (const v of c.values) {
    switch (c.condition) {
      case 'IEQUAL':
        parts.push(`${col} = ? COLLATE NOCASE`)
        params.push(v)
        break
      case 'CONTAIN':
        parts.push(`${col} LIKE ? ESCAPE '\\'`)
        params.push(`%${likeEscape(v)}%`)
        break
      case 'START_WITH':
        parts.push(`${col} LIKE ? ESCAPE '\\'`)
        params.push(`${likeEscape(v)}%`)
        break
      case 'END_WITH':
        parts.push(`${col} LIKE ? ESCAPE '\\'`)
        params.push(`%${likeEscape(v)}`)
        break
      default: {
        const op = RANGE_OPS[c.condition] as string
        const n = Number(v)
        if (v.trim() !== '' && Number.isFinite(n) && numCol !== 'NULL') {
          parts.push(`${numCol} ${op} ?`)
          params.push(n)
        } else {
          parts.push(`${col} ${op} ?`)
          params.push(v)
        }
      }
    }
  }
  return { sql: parts.length > 0 ? parts.join(' OR ') : '0', params }
}
