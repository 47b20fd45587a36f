/**
 * Time-series values are stored as JSON text, which Cypher cannot look into (no APOC). So
 * that filters and sorts on value fields run inside Neo4j, each row also carries its value's
 * scalars flattened into parallel list properties, written with the row:
 *
 * - `textPaths[i]` / `textValues[i]`, `numberPaths[i]` / `numberValues[i]`,
 *   `booleanPaths[i]` / `booleanValues[i]`: every string, number and boolean of the value and
 *   the dotted path that reaches it. Arrays are transparent: `tags: ['a', 'b']` gives two
 *   entries at `tags`, `fieldProfiles[].fieldPath` entries at `fieldProfiles.fieldPath`.
 * - `fieldPaths`: every path with a non-null scalar at or below it (for EXISTS).
 *
 * A fixed set of property names (not one per field), so arbitrary map keys in values never
 * create property-key tokens. Filters become one list parameter evaluated by one constant
 * statement (`cypher-timeseries.ts`).
 */
import { InvalidInputError, type TimeseriesRow } from '@catalog/core'
import type { TimeseriesCriterion as Criterion, TimeseriesFilter as Filter } from '@catalog/store'

/** The flattened scalars of one value; lists are null when empty (Neo4j stores no empty list reliably typed). */
export interface TimeseriesFields {
  readonly fieldPaths: string[] | null
  readonly textPaths: string[] | null
  readonly textValues: string[] | null
  readonly numberPaths: string[] | null
  readonly numberValues: number[] | null
  readonly booleanPaths: string[] | null
  readonly booleanValues: boolean[] | null
}

/** Flattens a time-series value into {@link TimeseriesFields}. */
export function timeseriesFields(value: Record<string, unknown>): TimeseriesFields {
  const exists = new Set<string>()
  const text: [string[], string[]] = [[], []]
  const number: [string[], number[]] = [[], []]
  const boolean: [string[], boolean[]] = [[], []]
  const leaf = (ancestors: readonly string[]) => {
    for (const p of ancestors) exists.add(p)
  }
  const walk = (v: unknown, ancestors: readonly string[]): void => {
    if (v === null || v === undefined) return
    if (Array.isArray(v)) {
      for (const element of v) walk(element, ancestors)
      return
    }
    const path = ancestors[ancestors.length - 1] ?? ''
    switch (typeof v) {
      case 'string':
        text[0].push(path)
        text[1].push(v)
        leaf(ancestors)
        return
      case 'number':
        if (!Number.isFinite(v)) return
        number[0].push(path)
        number[1].push(v)
        leaf(ancestors)
        return
      case 'boolean':
        boolean[0].push(path)
        boolean[1].push(v)
        leaf(ancestors)
        return
      case 'object':
        for (const [key, child] of Object.entries(v as Record<string, unknown>)) {
          walk(child, [...ancestors, path === '' ? key : `${path}.${key}`])
        }
    }
  }
  walk(value, [])
  const orNull = <T>(list: T[]) => (list.length === 0 ? null : list)
  return {
    fieldPaths: orNull([...exists]),
    textPaths: orNull(text[0]),
    textValues: orNull(text[1]),
    numberPaths: orNull(number[0]),
    numberValues: orNull(number[1]),
    booleanPaths: orNull(boolean[0]),
    booleanValues: orNull(boolean[1]),
  }
}

/** Bytes a row takes as the port counts them: keys, value and system metadata (UTF-8). */
export function timeseriesBytes(
  row: TimeseriesRow,
  key: { readonly partition: string; readonly messageId: string },
  value: string,
  systemMetadata: string | null,
): number {
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8')
  return (
    bytes(row.urn) +
    bytes(key.partition) +
    bytes(key.messageId) +
    bytes(value) +
    (systemMetadata === null ? 0 : bytes(systemMetadata)) +
    8
  )
}

/**
 * One criterion as the filter statement's `$filter` holds it. A row's values at `path`
 * satisfy it when: `exists` and the path holds something; or a string is in `texts`, a
 * number in `numbers`, a boolean in `booleans` (EQUAL / IN); or, with `compare`, a number
 * (`numeric`) or string passes the bound: above (`>`, `>=` when `inclusive`) or below.
 * `negated` inverts the outcome.
 */
export interface CriterionParam {
  readonly path: string
  readonly negated: boolean
  readonly exists: boolean
  readonly texts: string[]
  readonly numbers: number[]
  readonly booleans: boolean[]
  readonly compare: boolean
  readonly numeric: boolean
  readonly bound: string | number | null
  readonly above: boolean
  readonly inclusive: boolean
}

const NUMERIC = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/

/** A value field as a stored path: dotted segments, none empty, none with `"` or `\`. */
export function fieldPath(field: string): string {
  const segments = typeof field === 'string' ? field.split('.') : ['']
  if (segments.some((s) => s.length === 0 || /["\\]/.test(s))) {
    throw new InvalidInputError(`Invalid time-series field '${String(field)}'`)
  }
  return field
}

/** The `$filter` parameter of a filter (OR of ANDs); [] for no filter. Bad criteria are an {@link InvalidInputError}. */
export function filterParam(filter: Filter | undefined): CriterionParam[][] {
  return (filter ?? []).map((group) => group.map(criterionParam))
}

function criterionParam(c: Criterion): CriterionParam {
  const base = {
    path: fieldPath(c.field),
    negated: c.negated === true,
    exists: false,
    texts: [] as string[],
    numbers: [] as number[],
    booleans: [] as boolean[],
    compare: false,
    numeric: false,
    bound: null as string | number | null,
    above: false,
    inclusive: false,
  }
  const values = Array.isArray(c.values) ? c.values.map(String) : []
  switch (c.condition) {
    case 'EXISTS':
      return { ...base, exists: true }
    case 'EQUAL':
    case 'IN':
      if (values.length === 0) throw new InvalidInputError(`Criterion on '${c.field}' needs a value`)
      return {
        ...base,
        texts: values,
        numbers: values.filter((v) => NUMERIC.test(v)).map(Number),
        booleans: values.filter((v) => v === 'true' || v === 'false').map((v) => v === 'true'),
      }
    case 'GREATER_THAN':
    case 'GREATER_THAN_OR_EQUAL_TO':
    case 'LESS_THAN':
    case 'LESS_THAN_OR_EQUAL_TO': {
      const v = values[0]
      if (v === undefined) throw new InvalidInputError(`Criterion on '${c.field}' needs a value`)
      const numeric = NUMERIC.test(v)
      return {
        ...base,
        compare: true,
        numeric,
        bound: numeric ? Number(v) : v,
        above: c.condition.startsWith('GREATER'),
        inclusive: c.condition.endsWith('EQUAL_TO'),
      }
    }
    default:
      throw new InvalidInputError(`Unknown time-series condition '${String(c.condition)}'`)
  }
}
