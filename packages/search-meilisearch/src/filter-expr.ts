import { InvalidInputError } from '@catalog/core'

/** A value condition Meilisearch has no operator for, resolved to the field's matching values. */
export type LookupOp = 'contain' | 'start' | 'end' | 'ieq' | 'gt' | 'gte' | 'lt' | 'lte'

/**
 * A condition evaluated against a field's distinct values (see `LookupResolver`): the
 * values of `field` meeting `op` for any of `values` become an `attr IN [...]` of their
 * tokens. `kind` says which tokens `attr` holds: exact value tokens, folded keys, or the
 * URN digest.
 */
export interface Lookup {
  readonly kind: 'exact' | 'key' | 'urn'
  readonly field: string
  readonly attr: string
  readonly op: LookupOp
  readonly values: readonly string[]
}

/** A filter before rendering: constants and lookups are resolved or simplified away. */
export type FilterExpr =
  | { readonly k: 'const'; readonly value: boolean }
  | { readonly k: 'atom'; readonly text: string }
  | { readonly k: 'and' | 'or'; readonly parts: readonly FilterExpr[] }
  | { readonly k: 'not'; readonly part: FilterExpr }
  | { readonly k: 'lookup'; readonly lookup: Lookup }

export const TRUE: FilterExpr = { k: 'const', value: true }
export const FALSE: FilterExpr = { k: 'const', value: false }

const ATTRIBUTE = /^[A-Za-z_][A-Za-z0-9_]*$/
const PLAIN_NUMBER = /^-?\d+(?:\.\d+)?$/

/**
 * A value as a Meilisearch filter string literal: double-quoted, with `\` and `"` escaped,
 * so no value can end the literal or add an operator.
 */
export function quote(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}

/** An attribute name, checked: only names of this adapter's attributes ever reach a filter. */
export function attribute(name: string): string {
  if (!ATTRIBUTE.test(name)) throw new InvalidInputError(`'${name}' cannot be used as a search field`)
  return name
}

/** `attr = "value"`. */
export function eq(attr: string, value: string): FilterExpr {
  return { k: 'atom', text: `${attribute(attr)} = ${quote(value)}` }
}

/** `attr IN ["a", "b"]`; no values is FALSE. */
export function inList(attr: string, values: readonly string[]): FilterExpr {
  const unique = [...new Set(values)]
  if (unique.length === 0) return FALSE
  if (unique.length === 1) return eq(attr, unique[0] as string)
  return { k: 'atom', text: `${attribute(attr)} IN [${unique.map(quote).join(', ')}]` }
}

/** `attr EXISTS` (the document has the attribute; this adapter never stores empty arrays). */
export function exists(attr: string): FilterExpr {
  return { k: 'atom', text: `${attribute(attr)} EXISTS` }
}

/** `attr = true|false` on a boolean attribute. */
export function isBool(attr: string, value: boolean): FilterExpr {
  return { k: 'atom', text: `${attribute(attr)} = ${value}` }
}

/** A numeric comparison `attr > 10`. */
export function compare(attr: string, op: '>' | '>=' | '<' | '<=', n: number): FilterExpr {
  if (!Number.isFinite(n)) throw new InvalidInputError(`'${n}' is not a number`)
  const s = String(n)
  return { k: 'atom', text: `${attribute(attr)} ${op} ${PLAIN_NUMBER.test(s) ? s : quote(s)}` }
}

/** A lookup node (resolved before rendering). */
export function lookup(l: Lookup): FilterExpr {
  return { k: 'lookup', lookup: l }
}

/** Conjunction, constants folded. */
export function and(...parts: FilterExpr[]): FilterExpr {
  return junction('and', parts)
}

/** Disjunction, constants folded. */
export function or(...parts: FilterExpr[]): FilterExpr {
  return junction('or', parts)
}

/** Negation, constants and double negations folded. */
export function not(part: FilterExpr): FilterExpr {
  if (part.k === 'const') return part.value ? FALSE : TRUE
  if (part.k === 'not') return part.part
  return { k: 'not', part }
}

function junction(k: 'and' | 'or', parts: readonly FilterExpr[]): FilterExpr {
  const absorbing = k === 'or'
  const out: FilterExpr[] = []
  for (const p of parts) {
    if (p.k === 'const') {
      if (p.value === absorbing) return p
      continue
    }
    if (p.k === k) out.push(...p.parts)
    else out.push(p)
  }
  if (out.length === 0) return absorbing ? FALSE : TRUE
  if (out.length === 1) return out[0] as FilterExpr
  return { k, parts: out }
}

/** Replaces every lookup by what `resolve` makes of it, simplifying as it goes. */
export async function resolveLookups(
  expr: FilterExpr,
  resolve: (l: Lookup) => Promise<FilterExpr>,
): Promise<FilterExpr> {
  switch (expr.k) {
    case 'lookup':
      return resolve(expr.lookup)
    case 'not':
      return not(await resolveLookups(expr.part, resolve))
    case 'and':
    case 'or': {
      const parts = await Promise.all(expr.parts.map((p) => resolveLookups(p, resolve)))
      return expr.k === 'and' ? and(...parts) : or(...parts)
    }
    default:
      return expr
  }
}

/** Every lookup in an expression. */
export function lookupsOf(expr: FilterExpr): Lookup[] {
  switch (expr.k) {
    case 'lookup':
      return [expr.lookup]
    case 'not':
      return lookupsOf(expr.part)
    case 'and':
    case 'or':
      return expr.parts.flatMap(lookupsOf)
    default:
      return []
  }
}

/**
 * The Meilisearch filter string of a resolved expression: `undefined` when it matches
 * everything. A constant FALSE or an unresolved lookup is a programming error here: callers
 * check {@link isFalse} first and resolve lookups.
 */
export function render(expr: FilterExpr): string | undefined {
  if (expr.k === 'const') {
    if (expr.value) return undefined
    throw new Error('a filter that matches nothing has no Meilisearch form; check isFalse() first')
  }
  return renderNode(expr)
}

/** True for the constant FALSE (the query can be answered without asking Meilisearch). */
export function isFalse(expr: FilterExpr): boolean {
  return expr.k === 'const' && !expr.value
}

function renderNode(expr: FilterExpr): string {
  switch (expr.k) {
    case 'atom':
      return expr.text
    case 'not':
      return `NOT ${group(expr.part)}`
    case 'and':
    case 'or':
      return expr.parts.map(group).join(expr.k === 'and' ? ' AND ' : ' OR ')
    case 'lookup':
      throw new Error(`unresolved lookup on ${expr.lookup.field}`)
    case 'const':
      throw new Error('constants are folded before rendering')
  }
}

function group(expr: FilterExpr): string {
  const s = renderNode(expr)
  return expr.k === 'atom' || expr.k === 'not' ? s : `(${s})`
}
