/**
 * The metadata-test definition language (`testInfo.definition.json`): which entities a test
 * applies to (`on`) and the rules they must satisfy, as predicates on aspect fields combined
 * with `and` / `or` / `not`. Parsed and checked when a test is ingested, so a stored test is
 * always well formed; evaluated by the metadata service.
 */
import { ValidationError } from '../errors.js'
import { compileTestRegex } from './test-regex.js'
import type { AspectCheckLookup, EntitySpec } from './types.js'

export const TEST_OPERATORS = [
  'exists',
  'equals',
  'contains_any',
  'starts_with',
  'regex_match',
  'greater_than',
  'less_than',
  'is_true',
  'is_false',
] as const
export type TestOperator = (typeof TEST_OPERATORS)[number]

/** Pseudo-properties that are not aspect fields. */
export const TEST_PSEUDO_PROPERTIES = ['urn', 'entityType'] as const

/** `aspect.field.field` (or `urn`, `entityType`) compared with `values` by `operator`. */
export interface TestPredicate {
  readonly property: string
  readonly operator: TestOperator
  /** Strings as given (numbers and booleans are turned into strings). */
  readonly values: readonly string[]
}

export type TestRule =
  | { readonly and: readonly TestRule[] }
  | { readonly or: readonly TestRule[] }
  | { readonly not: TestRule }
  | TestPredicate

export interface TestDefinition {
  readonly on: { readonly types: readonly string[]; readonly conditions?: TestRule }
  readonly rules: TestRule
}

/** Limits that keep a definition cheap to evaluate. */
export const TEST_LIMITS = {
  maxJsonChars: 64 * 1024,
  maxDepth: 16,
  maxPredicates: 256,
  maxValues: 256,
} as const

const OPERATORS: ReadonlySet<string> = new Set(TEST_OPERATORS)
const NO_VALUES: ReadonlySet<TestOperator> = new Set(['exists', 'is_true', 'is_false'])
const ONE_NUMBER: ReadonlySet<TestOperator> = new Set(['greater_than', 'less_than'])
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/

/**
 * Parses and checks a definition; throws a {@link ValidationError} naming the first problem
 * (JSON path included), so a malformed test is refused when it is ingested.
 */
export function parseTestDefinition(json: string, registry: AspectCheckLookup): TestDefinition {
  if (json.length > TEST_LIMITS.maxJsonChars) {
    fail('', `the definition is longer than ${TEST_LIMITS.maxJsonChars} characters`)
  }
  let raw: unknown
  try {
    raw = JSON.parse(json)
  } catch (err) {
    fail('', `the definition is not valid JSON: ${(err as Error).message}`)
  }
  const root = object(raw, '')
  only(root, ['on', 'rules'], '')
  const on = object(root.on, '/on')
  only(on, ['types', 'conditions'], '/on')
  if (!Array.isArray(on.types) || on.types.length === 0) fail('/on/types', 'must be a non-empty list')
  const entities = on.types.map((type: unknown, i: number) => {
    const entity = typeof type === 'string' ? registry.findEntity(type) : undefined
    if (!entity) fail(`/on/types/${i}`, `unknown entity type ${JSON.stringify(type)}`)
    return entity
  })
  const ctx: Context = { registry, entities, predicates: 0 }
  if (root.rules === undefined) fail('/rules', 'is required')
  return {
    on: {
      types: entities.map((e) => e.name),
      ...(on.conditions !== undefined ? { conditions: rule(on.conditions, '/on/conditions', 0, ctx) } : {}),
    },
    rules: rule(root.rules, '/rules', 0, ctx),
  }
}

/** The `check` of the `testInfo` aspect: its definition must parse. */
export function checkTestInfo(value: Record<string, unknown>, registry: AspectCheckLookup): void {
  const definition = value.definition as { type?: unknown; json?: unknown } | undefined
  if (typeof definition?.json !== 'string') {
    throw new ValidationError(
      'Failed to validate record with class com.linkedin.test.TestInfo: ERROR :: /definition/json :: a JSON test definition is required',
    )
  }
  try {
    parseTestDefinition(definition.json, registry)
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err
    throw new ValidationError(
      `Failed to validate record with class com.linkedin.test.TestInfo: ERROR :: /definition/json :: ${err.message}`,
    )
  }
}

interface Context {
  readonly registry: AspectCheckLookup
  readonly entities: readonly EntitySpec[]
  predicates: number
}

function rule(raw: unknown, where: string, depth: number, ctx: Context): TestRule {
  if (depth > TEST_LIMITS.maxDepth) fail(where, `rules nest deeper than ${TEST_LIMITS.maxDepth} levels`)
  const node = object(raw, where)
  const keys = Object.keys(node)
  if (keys.includes('and') || keys.includes('or')) {
    const op = keys.includes('and') ? 'and' : 'or'
    only(node, [op], where)
    const list = node[op]
    if (!Array.isArray(list) || list.length === 0) fail(`${where}/${op}`, 'must be a non-empty list')
    const children = list.map((child: unknown, i: number) =>
      rule(child, `${where}/${op}/${i}`, depth + 1, ctx),
    )
    return op === 'and' ? { and: children } : { or: children }
  }
  if (keys.includes('not')) {
    only(node, ['not'], where)
    return { not: rule(node.not, `${where}/not`, depth + 1, ctx) }
  }
  return predicate(node, where, ctx)
}

function predicate(node: Record<string, unknown>, where: string, ctx: Context): TestPredicate {
  only(node, ['property', 'operator', 'values', 'value'], where)
  if (++ctx.predicates > TEST_LIMITS.maxPredicates) {
    fail(where, `a definition holds at most ${TEST_LIMITS.maxPredicates} predicates`)
  }
  const { property, operator } = node
  if (typeof property !== 'string' || property.length === 0) {
    fail(`${where}/property`, 'must be a property path such as datasetProperties.description')
  }
  checkProperty(property, `${where}/property`, ctx)
  if (typeof operator !== 'string' || !OPERATORS.has(operator)) {
    fail(`${where}/operator`, `must be one of ${TEST_OPERATORS.join(', ')}`)
  }
  const op = operator as TestOperator
  if (node.values !== undefined && node.value !== undefined) fail(where, 'give values or value, not both')
  const given = node.values ?? (node.value === undefined ? [] : [node.value])
  if (!Array.isArray(given)) fail(`${where}/values`, 'must be a list')
  if (given.length > TEST_LIMITS.maxValues)
    fail(`${where}/values`, `holds more than ${TEST_LIMITS.maxValues}`)
  const values = given.map((v: unknown, i: number) => {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
      fail(`${where}/values/${i}`, 'must be a string, number or boolean')
    }
    return String(v)
  })
  if (NO_VALUES.has(op) && values.length > 0) fail(`${where}/values`, `${op} takes no values`)
  if (!NO_VALUES.has(op) && values.length === 0) fail(`${where}/values`, `${op} needs at least one value`)
  if (ONE_NUMBER.has(op) && (values.length !== 1 || !NUMBER.test(values[0] as string))) {
    fail(`${where}/values`, `${op} takes exactly one number`)
  }
  if (op === 'regex_match') {
    for (const [i, v] of values.entries()) compileTestRegex(v, `${where}/values/${i}`)
  }
  return { property, operator: op, values }
}

function checkProperty(property: string, where: string, ctx: Context): void {
  if ((TEST_PSEUDO_PROPERTIES as readonly string[]).includes(property)) return
  const segments = property.split('.')
  if (segments.some((s) => s.length === 0)) fail(where, `${JSON.stringify(property)} has an empty segment`)
  const aspect = segments[0] as string
  if (!ctx.entities.some((e) => ctx.registry.hasAspect(e, aspect))) {
    fail(
      where,
      `${JSON.stringify(property)}: no entity type in on.types (${ctx.entities.map((e) => e.name).join(', ')}) has an aspect ${aspect}`,
    )
  }
}

function object(raw: unknown, where: string): Record<string, unknown> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) fail(where, 'must be a JSON object')
  return raw as Record<string, unknown>
}

function only(node: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(node)) {
    if (!allowed.includes(key)) fail(`${where}/${key}`, `unknown member (allowed: ${allowed.join(', ')})`)
  }
}

function fail(where: string, message: string): never {
  throw new ValidationError(`${where || '/'}: ${message}`)
}
