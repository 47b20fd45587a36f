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
 * Longest URN parsed at all, in characters. Entity URNs that are written are bounded tighter,
 * by DataHub's 512 URL-encoded bytes ({@link checkWritableUrn}); this bound covers the URNs
 * DataHub exempts (schemaField) and every URN a request merely names.
 */
export const MAX_URN_LENGTH = 4096

/** DataHub's bound on a written entity URN: 512 bytes once URL-encoded (`URN_NUM_BYTES_LIMIT`). */
export const MAX_URN_ENCODED_BYTES = 512

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const ENTITY_TYPE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/
/** Any surrogate: a cheap test that spares most URNs {@link LONE_SURROGATE}'s lookarounds. */
const ANY_SURROGATE = /[\uD800-\uDFFF]/

/**
 * Parses a URN. Throws {@link InvalidInputError} naming the problem when the string is
 * not a URN: wrong prefix, longer than {@link MAX_URN_LENGTH}, a lone UTF-16 surrogate (it
 * cannot be encoded, so it could never be read back), empty type or id, unbalanced
 * parentheses, empty tuple member.
 */
export function parseUrn(raw: string): Urn {
  if (typeof raw !== 'string' || !raw.startsWith(PREFIX)) {
    throw new InvalidInputError(`Invalid urn '${show(raw)}': a urn starts with '${PREFIX}'`)
  }
  if (raw.length > MAX_URN_LENGTH) {
    throw new InvalidInputError(
      `Invalid urn '${show(raw)}': it is ${raw.length} characters long; the limit is ${MAX_URN_LENGTH} (max urn length)`,
    )
  }
  if (ANY_SURROGATE.test(raw) && LONE_SURROGATE.test(raw)) {
    throw new InvalidInputError(`Invalid urn '${show(raw)}': it holds a lone UTF-16 surrogate`)
  }
  const rest = raw.slice(PREFIX.length)
  const colon = rest.indexOf(':')
  if (colon <= 0) {
    throw new InvalidInputError(`Invalid urn '${show(raw)}': expected urn:li:<entityType>:<id>`)
  }
  const entityType = rest.slice(0, colon)
  const id = rest.slice(colon + 1)
  if (id.length === 0) {
    throw new InvalidInputError(`Invalid urn '${show(raw)}': the id after the entity type is empty`)
  }
  if (!ENTITY_TYPE_NAME.test(entityType)) {
    throw new InvalidInputError(`Invalid urn '${show(raw)}': '${entityType}' is not an entity type name`)
  }
  if (id.startsWith('(')) return { raw, entityType, parts: splitTuple(raw, id) }
  checkBalanced(raw, id)
  return { raw, entityType, parts: [id] }
}

/**
 * The checks DataHub applies to the URN of an entity being written (`UrnValidationUtil`):
 * at most {@link MAX_URN_ENCODED_BYTES} bytes once URL-encoded (schemaField URNs exempt), no
 * leading or trailing whitespace, no `\u241F` (the browse path delimiter).
 */
export function checkWritableUrn(urn: Urn): void {
  const raw = urn.raw
  if (raw.trim().length !== raw.length) {
    throw new InvalidInputError('Error: cannot provide an URN with leading or trailing whitespace')
  }
  if (urn.entityType !== 'schemaField' && urlEncodedLength(raw) > MAX_URN_ENCODED_BYTES) {
    throw new InvalidInputError(
      `Error: cannot provide an URN longer than ${MAX_URN_ENCODED_BYTES} bytes (when URL encoded)`,
    )
  }
  if (raw.includes('\u241F')) throw new InvalidInputError('Error: URN cannot contain \u241F character')
}

/** Length of `text` as Java's `URLEncoder` writes it (UTF-8; `a-zA-Z0-9.-*_` and space stay one byte). */
function urlEncodedLength(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (UNRESERVED[c] === 1) n += 1
    else if (c < 0x80) n += 3
    else if (c < 0x800) n += 6
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 12 // a surrogate pair: four UTF-8 bytes
      i++
    } else n += 9
  }
  return n
}

/** ASCII characters Java's `URLEncoder` writes as themselves (space becomes `+`). */
const UNRESERVED = (() => {
  const table = new Uint8Array(128)
  for (const ch of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-*_ ') {
    table[ch.charCodeAt(0)] = 1
  }
  return table
})()

function checkBalanced(raw: string, id: string): void {
  let depth = 0
  for (const c of id) {
    if (c === '(') depth++
    else if (c === ')' && --depth < 0) break
  }
  if (depth !== 0) throw new InvalidInputError(`Invalid urn '${show(raw)}': unbalanced parentheses`)
}

/** The URN for a message: long ones are cut, so an error body never echoes a megabyte. */
function show(raw: unknown): string {
  const text = String(raw)
  return text.length > 200 ? `${text.slice(0, 200)}...` : text
}

function splitTuple(raw: string, id: string): string[] {
  if (!id.endsWith(')')) {
    throw new InvalidInputError(`Invalid urn '${show(raw)}': tuple id must end with ')'`)
  }
  const parts: string[] = []
  let depth = 0
  let start = 1
  for (let i = 1; i < id.length - 1; i++) {
    const c = id.charCodeAt(i)
    if (c === 40 /* ( */) depth++
    else if (c === 41 /* ) */) {
      depth--
      if (depth < 0) throw new InvalidInputError(`Invalid urn '${show(raw)}': unbalanced parentheses`)
    } else if (c === 44 /* , */ && depth === 0) {
      parts.push(id.slice(start, i))
      start = i + 1
    }
  }
  if (depth !== 0) throw new InvalidInputError(`Invalid urn '${show(raw)}': unbalanced parentheses`)
  parts.push(id.slice(start, id.length - 1))
  if (parts.some((p) => p.length === 0)) {
    throw new InvalidInputError(`Invalid urn '${show(raw)}': a tuple member is empty`)
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
