import { InvalidInputError } from '@catalog/core'
import { checkLimit, SEARCH_LIMITS } from './limits.js'
import { ENTITY_TYPE_FIELD, FIELD_EXPANSIONS, REMOVED_FIELD, URN_FIELD } from './search-schema.js'

/** Filter conditions (DataHub's `Condition` enum, the ones this catalog evaluates). */
export const CONDITIONS = [
  'EQUAL',
  'IEQUAL',
  'CONTAIN',
  'START_WITH',
  'END_WITH',
  'GREATER_THAN',
  'GREATER_THAN_OR_EQUAL_TO',
  'LESS_THAN',
  'LESS_THAN_OR_EQUAL_TO',
  'EXISTS',
  'IS_NULL',
  'IN',
] as const
export type Condition = (typeof CONDITIONS)[number]

const GRAPH_CONDITIONS = new Set(['DESCENDANTS_INCL', 'ANCESTORS_INCL', 'RELATED_INCL'])
const VALUELESS = new Set<Condition>(['EXISTS', 'IS_NULL'])

/** A criterion as clients send it: `value` (DataHub up to v1.5) or `values`. */
export interface CriterionInput {
  readonly field: string
  readonly value?: string | number | boolean
  readonly values?: ReadonlyArray<string | number | boolean>
  readonly condition?: string
  readonly negated?: boolean
}

/** DataHub's `Filter`: `or` of `and` groups, or the deprecated single group `criteria`. */
export interface FilterInput {
  readonly or?: ReadonlyArray<{ readonly and?: readonly CriterionInput[] }>
  readonly criteria?: readonly CriterionInput[]
}

/** A checked criterion: the index fields it reads (expanded), its values and condition. */
export interface NormalizedCriterion {
  /** The field as the client named it (without `.keyword`). */
  readonly field: string
  /** Index fields it matches on, any of them (`tags` -> tags, fieldTags, editedFieldTags). */
  readonly fields: readonly string[]
  readonly values: readonly string[]
  readonly condition: Condition
  readonly negated: boolean
}

/** OR of AND groups; no groups means no filter. */
export interface NormalizedFilter {
  readonly or: ReadonlyArray<readonly NormalizedCriterion[]>
}

export const NO_FILTER: NormalizedFilter = { or: [] }

/**
 * Checks and normalizes a filter. `isField` says which index fields exist for the searched
 * entity types; `_entityType`, `urn` and `removed` always exist. An unknown field or condition,
 * a graph condition, or a missing value is an {@link InvalidInputError}.
 */
export function normalizeFilter(
  filter: FilterInput | undefined | null,
  isField: (name: string) => boolean,
): NormalizedFilter {
  if (!filter) return NO_FILTER
  const groups: CriterionInput[][] = []
  for (const group of filter.or ?? []) groups.push([...(group.and ?? [])])
  if (filter.criteria && filter.criteria.length > 0) groups.push([...filter.criteria])
  checkFilterSize(groups)
  return {
    or: groups.filter((g) => g.length > 0).map((g) => g.map((c) => normalizeCriterion(c, isField))),
  }
}

/** Bounds a filter's size ({@link SEARCH_LIMITS}) before any criterion is looked at. */
function checkFilterSize(groups: ReadonlyArray<readonly CriterionInput[]>): void {
  checkLimit('filter groups', groups.length, SEARCH_LIMITS.maxFilterGroups)
  let criteria = 0
  let values = 0
  for (const group of groups) {
    criteria += group.length
    checkLimit('filter criteria', criteria, SEARCH_LIMITS.maxFilterCriteria)
    for (const c of group) {
      const own = Array.isArray(c?.values) ? c.values.length : 1
      checkLimit('values in one filter criterion', own, SEARCH_LIMITS.maxCriterionValues)
      values += own
      for (const v of Array.isArray(c?.values) ? c.values : [c?.value])
        if (typeof v === 'string')
          checkLimit('characters in a filter value', v.length, SEARCH_LIMITS.maxValueChars)
    }
  }
  checkLimit('filter values', values, SEARCH_LIMITS.maxFilterValues)
}

/** True when a criterion names the soft-delete field, which turns the default exclusion off. */
export function filterNamesRemoved(filter: NormalizedFilter): boolean {
  return filter.or.some((g) => g.some((c) => c.field === REMOVED_FIELD))
}

/** Index fields a field name matches on: itself, or DataHub's expansion. */
export function expandField(field: string): readonly string[] {
  return FIELD_EXPANSIONS[field] ?? [field]
}

/** True when `field` is an index field or expands to one (`env` -> origin). */
export function isKnownField(field: string, isField: (name: string) => boolean): boolean {
  if (field === ENTITY_TYPE_FIELD || field === URN_FIELD || field === REMOVED_FIELD) return true
  return expandField(field).some(isField)
}

function normalizeCriterion(c: CriterionInput, isField: (name: string) => boolean): NormalizedCriterion {
  if (typeof c.field !== 'string' || c.field === '')
    throw new InvalidInputError('A filter criterion has no field')
  const field = c.field.endsWith('.keyword') ? c.field.slice(0, -'.keyword'.length) : c.field
  if (!isKnownField(field, isField))
    throw new InvalidInputError(
      `Unknown filter field '${c.field}': it is not a searchable field of this entity`,
    )
  const raw = (c.condition ?? 'EQUAL').toUpperCase()
  if (GRAPH_CONDITIONS.has(raw))
    throw new InvalidInputError(`Filter condition ${raw} is not supported by this catalog's search`)
  if (!(CONDITIONS as readonly string[]).includes(raw))
    throw new InvalidInputError(
      `Unknown filter condition '${c.condition}' for field '${c.field}'; use one of ${CONDITIONS.join(', ')}`,
    )
  const condition = raw as Condition
  let values: string[]
  if (c.values && c.values.length > 0) values = c.values.map(String)
  else if (c.value !== undefined && c.value !== null) {
    const v = String(c.value)
    // DataHub's `value` form: EQUAL splits on commas unless the value is a URN.
    values = condition === 'EQUAL' && !v.startsWith('urn:li:') && v.includes(',') ? v.split(',') : [v]
  } else values = []
  if (values.length === 0 && !VALUELESS.has(condition))
    throw new InvalidInputError(`Filter criterion on '${c.field}' with condition ${condition} needs a value`)
  return {
    field,
    fields: field === ENTITY_TYPE_FIELD || field === URN_FIELD ? [field] : expandField(field),
    values,
    condition,
    negated: c.negated === true,
  }
}
