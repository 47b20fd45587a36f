import { createHash } from 'node:crypto'

/**
 * How values become Meilisearch filter tokens. Meilisearch normalizes every filterable
 * string (trimmed, NFKD, lower-cased) and cuts it at 468 bytes, so an exact, case-sensitive
 * comparison needs an encoding those steps cannot change: lower-case hex of the UTF-8 bytes,
 * or a SHA-256 digest for long values. User text never reaches a filter string raw: every
 * value is one of these tokens, a registry name or a number.
 */

/** Values up to this many UTF-8 bytes are hex-encoded (decodable); longer ones are hashed. */
const HEX_MAX_BYTES = 150
/** Keys stored as they are when short and already in Meilisearch's normal form. */
const PLAIN_KEY_MAX_BYTES = 200
/** Characters that never appear in a plain key: quotes, backslash, and our hash marker. */
const UNSAFE_KEY = /["'\\#\s]/u
const HEX = /^(?:[0-9a-f]{2})*$/

/** Primary key of the state document (cursor and layout), beside the entity documents. */
export const STATE_PK = '_catalog_state'

/** SHA-256 of a string, lower-case hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/** The primary key of a URN's document (URNs hold characters Meilisearch ids may not). */
export function pkOf(urn: string): string {
  return sha256(urn)
}

/** The case-sensitive token of a value: hex of its UTF-8 bytes, or `#` and its digest. */
export function exactToken(value: string): string {
  const bytes = Buffer.from(value, 'utf8')
  return bytes.length <= HEX_MAX_BYTES ? bytes.toString('hex') : `#${sha256(value)}`
}

/** The value of an {@link exactToken}, or undefined for a hashed (long) value. */
export function decodeExact(token: string): string | undefined {
  return HEX.test(token) ? Buffer.from(token, 'hex').toString('utf8') : undefined
}

/**
 * The token of a case-folded key (`field:value` matching): the key itself when Meilisearch's
 * normalization leaves it unchanged and it holds no quote, backslash or space, else `#` and
 * its digest.
 */
export function keyToken(key: string): string {
  const plain =
    key.length > 0 &&
    Buffer.byteLength(key, 'utf8') <= PLAIN_KEY_MAX_BYTES &&
    !UNSAFE_KEY.test(key) &&
    key === key.normalize('NFKD').toLowerCase()
  return plain ? key : `#${sha256(key)}`
}

/** The key of a {@link keyToken}, or undefined for a hashed one. */
export function decodeKey(token: string): string | undefined {
  return token.startsWith('#') ? undefined : token
}

/** The token of a browse node (`/prod/kafka`, `` for the root): never decoded, only compared. */
export function nodeToken(node: string): string {
  return sha256(node).slice(0, 32)
}

/** The token of a browse group: the parent node's digest and the next segment's exact token. */
export function childToken(parent: string, segment: string): string {
  return `${sha256(parent).slice(0, 16)}:${exactToken(segment)}`
}

/**
 * The segment of a {@link childToken} when it is a child of `parent`; `null` for another
 * parent; undefined when the segment is too long to decode.
 */
export function decodeChild(token: string, parent: string): string | undefined | null {
  const prefix = `${sha256(parent).slice(0, 16)}:`
  if (!token.startsWith(prefix)) return null
  return decodeExact(token.slice(prefix.length))
}

/** The segments of a browse path (`/prod//kafka/` gives prod, kafka). */
export function pathSegments(path: string): string[] {
  return path.split('/').filter((s) => s !== '')
}

/** The node of a list of segments: `/a/b`, or `` for the root. */
export function nodeOf(segments: readonly string[]): string {
  return segments.length === 0 ? '' : `/${segments.join('/')}`
}
