import { InvalidInputError } from './errors.js'

/** A parsed URN: `urn:li:<entityType>:<id>` where `<id>` is a plain string or a `(a,b,...)` tuple. */
export interface Urn {
  /** The URN exactly as given. */
  readonly raw: string
  readonly entityType: string
  /** Tuple members in order; a plain id is a one-member tuple. Nested URNs stay strings. */
  readonly parts: readonly string[]
}

const PREFIX = 'urn:li:'

/**
 * Parses a URN. Throws {@link InvalidInputError} naming the problem when the string is
 * not a URN: wrong prefix, empty type or id, unbalanced parentheses, empty tuple member.
 */
export function parseUrn(raw: string): Urn {
  if (typeof raw !== 'string' || !raw.startsWith(PREFIX)) {
    throw new InvalidInputError(`Invalid urn '${String(raw)}': a urn starts with '${PREFIX}'`)
  }
  const rest = raw.slice(PREFIX.length)
  const colon = rest.indexOf(':')
  if (colon <= 0) {
    throw new InvalidInputError(`Invalid urn '${raw}': expected urn:li:<entityType>:<id>`)
  }
  const entityType = rest.slice(0, colon)
  const id = rest.slice(colon + 1)
  if (id.length === 0) {
    throw new InvalidInputError(`Invalid urn '${raw}': the id after the entity type is empty`)
  }
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(entityType)) {
    throw new InvalidInputError(`Invalid urn '${raw}': '${entityType}' is not an entity type name`)
  }
  return { raw, entityType, parts: id.startsWith('(') ? splitTuple(raw, id) : [id] }
}

function splitTuple(raw: string, id: string): string[] {
  if (!id.endsWith(')')) {
    throw new InvalidInputError(`Invalid urn '${raw}': tuple id must end with ')'`)
  }
  const parts: string[] = []
  let depth = 0
  let start = 1
  for (let i = 1; i < id.length - 1; i++) {
    const c = id[i]
    if (c === '(') depth++
    else if (c === ')') {
      depth--
      if (depth < 0) throw new InvalidInputError(`Invalid urn '${raw}': unbalanced parentheses`)
    } else if (c === ',' && depth === 0) {
      parts.push(id.slice(start, i))
      start = i + 1
    }
  }
  if (depth !== 0) throw new InvalidInputError(`Invalid urn '${raw}': unbalanced parentheses`)
  parts.push(id.slice(start, id.length - 1))
  if (parts.some((p) => p.length === 0)) {
    throw new InvalidInputError(`Invalid urn '${raw}': a tuple member is empty`)
  }
  return parts
}

/** Formats a URN from its entity type and tuple members (one member gives a plain id). */
export function formatUrn(entityType: string, parts: readonly string[]): string {
  const id = parts.length === 1 ? parts[0] : `(${parts.join(',')})`
  return `${PREFIX}${entityType}:${id}`
}

/** True when `value` parses as a URN (of `entityType`, when given). */
export function isUrn(value: unknown, entityType?: string): boolean {
  if (typeof value !== 'string') return false
  try {
    const urn = parseUrn(value)
    return entityType === undefined || urn.entityType === entityType
  } catch {
    return false
  }
}
