import {
  ENTITY_TYPE_FIELD,
  expandField,
  fold,
  type NormalizedCriterion,
  type NormalizedFilter,
  queryWords,
  REMOVED_FIELD,
  URN_FIELD,
} from '@catalog/search'
import { ATTR, exactAttr, type FieldCatalog, keyAttr } from './attributes.js'
import {
  and,
  compare,
  exists,
  FALSE,
  type FilterExpr,
  inList,
  isBool,
  type LookupOp,
  lookup,
  not,
  or,
  TRUE,
} from './filter-expr.js'
import { exactToken, keyToken, nodeToken, pkOf } from './tokens.js'

const RANGES: Readonly<Record<string, { op: '>' | '>=' | '<' | '<='; lookup: LookupOp }>> = {
  GREATER_THAN: { op: '>', lookup: 'gt' },
  GREATER_THAN_OR_EQUAL_TO: { op: '>=', lookup: 'gte' },
  LESS_THAN: { op: '<', lookup: 'lt' },
  LESS_THAN_OR_EQUAL_TO: { op: '<=', lookup: 'lte' },
}
const LOOKUPS: Readonly<Record<string, LookupOp>> = {
  CONTAIN: 'contain',
  START_WITH: 'start',
  END_WITH: 'end',
  IEQUAL: 'ieq',
}
const NUMBER = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/

/** The documents of the searched entity types, soft-deleted ones left out unless asked for. */
export function scopeFilter(entityTypes: readonly string[], includeRemoved: boolean): FilterExpr {
  return and(inList(ATTR.entityType, entityTypes), includeRemoved ? TRUE : isBool(ATTR.removed, false))
}

/**
 * Translates a validated filter (OR of AND groups) to a filter expression. A criterion matches
 * when any of its expanded fields has a value meeting the condition for any of its values;
 * `negated` inverts it. Pure: the same filter always gives the same expression.
 *
 * - EQUAL / IN: `_f_<field> IN [tokens]` (case-sensitive, exact);
 * - EXISTS / IS_NULL: `_f_<field> EXISTS` / its negation;
 * - GREATER_THAN ... LESS_THAN_OR_EQUAL_TO on a numeric field with numbers: `<field> > n`;
 * - CONTAIN, START_WITH, END_WITH, IEQUAL, and ranges on text: Meilisearch has no operator
 *   for them, so they become lookups: the field's distinct values are read (facet
 *   distribution, or a document scan when the facet is capped), the condition is evaluated
 *   on them exactly (case- and accent-insensitive for CONTAIN, START_WITH, END_WITH, IEQUAL;
 *   lexicographic for ranges), and the matching values' tokens form an `IN [...]`;
 * - `_entityType`: entity names, case-insensitive; `removed` EQUAL: the document's
 *   soft-delete flag; `urn` EQUAL: the document key.
 */
export function translateFilter(filter: NormalizedFilter, catalog: FieldCatalog): FilterExpr {
  if (filter.or.length === 0) return TRUE
  return or(...filter.or.map((group) => and(...group.map((c) => criterion(c, catalog)))))
}

function criterion(c: NormalizedCriterion, catalog: FieldCatalog): FilterExpr {
  const expr = positive(c, catalog)
  return c.negated ? not(expr) : expr
}

function positive(c: NormalizedCriterion, catalog: FieldCatalog): FilterExpr {
  const valueless = c.condition === 'EXISTS' || c.condition === 'IS_NULL'
  if (c.field === ENTITY_TYPE_FIELD) {
    if (valueless) return c.condition === 'EXISTS' ? TRUE : FALSE
    const names = c.values.map((v) => catalog.entityName(v)).filter((n): n is string => n !== undefined)
    return inList(ATTR.entityType, names)
  }
  if (c.field === REMOVED_FIELD && ['EQUAL', 'IEQUAL', 'IN'].includes(c.condition)) {
    const flags = new Set(c.values.map((v) => v.toLowerCase() === 'true'))
    return or(...[...flags].map((f) => isBool(ATTR.removed, f)))
  }
  if (c.field === URN_FIELD) {
    if (valueless) return c.condition === 'EXISTS' ? TRUE : FALSE
    if (c.condition === 'EQUAL' || c.condition === 'IN') return inList(ATTR.pk, c.values.map(pkOf))
    return lookup({
      kind: 'urn',
      field: URN_FIELD,
      attr: ATTR.pk,
      op: LOOKUPS[c.condition] ?? (RANGES[c.condition]?.lookup as LookupOp),
      values: c.values,
    })
  }
  if (valueless) {
    const any = or(...c.fields.map((f) => exists(exactAttr(f))))
    return c.condition === 'EXISTS' ? any : not(any)
  }
  return or(...c.fields.map((f) => onField(f, c, catalog)))
}

function onField(field: string, c: NormalizedCriterion, catalog: FieldCatalog): FilterExpr {
  const equal = c.condition === 'EQUAL' || c.condition === 'IN'
  // A browse path v2 node matches as DataHub's path-hierarchy field does: the node and below.
  if (equal && catalog.isBrowsePathV2(field))
    return or(
      inList(
        exactAttr(field),
        c.values.map((v) => exactToken(v)),
      ),
      inList(ATTR.underV2, c.values.map(nodeToken)),
    )
  if (equal)
    return inList(
      exactAttr(field),
      c.values.map((v) => exactToken(v)),
    )
  const range = RANGES[c.condition]
  if (range && catalog.isNumeric(field) && c.values.every((v) => NUMBER.test(v)))
    return or(...c.values.map((v) => compare(field, range.op, Number(v))))
  const op = LOOKUPS[c.condition] ?? range?.lookup
  if (!op) return FALSE
  return lookup({ kind: 'exact', field, attr: exactAttr(field), op, values: c.values })
}

/**
 * A `field:value` clause of the query: the field (or its expansion: `tags` covers field tags)
 * holds the value, case-insensitively, as a whole value, as a short form of a URN
 * (`platform:kafka`), or as its words (`name:orders`; a several-word value needs every word).
 * `field:val*` matches keys starting with the value (a lookup). `urn:...` is the document.
 */
export function fieldClause(field: string, value: string, prefix: boolean): FilterExpr {
  if (field === URN_FIELD) {
    if (!prefix) return inList(ATTR.pk, [pkOf(value)])
    return lookup({ kind: 'urn', field: URN_FIELD, attr: ATTR.pk, op: 'start', values: [value] })
  }
  const folded = fold(value)
  const words = queryWords(value).map((w) => w.word)
  return or(
    ...expandField(field).map((f) => {
      if (prefix) return lookup({ kind: 'key', field: f, attr: keyAttr(f), op: 'start', values: [folded] })
      const whole = inList(keyAttr(f), [keyToken(folded)])
      if (words.length === 0 || (words.length === 1 && words[0] === folded)) return whole
      return or(whole, and(...words.map((w) => inList(keyAttr(f), [keyToken(w)]))))
    }),
  )
}

/** True when `text` (a stored value or key) meets a lookup's condition for `value`. */
export function lookupMatches(op: LookupOp, text: string, value: string): boolean {
  switch (op) {
    case 'contain':
      return fold(text).includes(fold(value))
    case 'start':
      return fold(text).startsWith(fold(value))
    case 'end':
      return fold(text).endsWith(fold(value))
    case 'ieq':
      return fold(text) === fold(value)
    case 'gt':
      return text > value
    case 'gte':
      return text >= value
    case 'lt':
      return text < value
    case 'lte':
      return text <= value
  }
}
