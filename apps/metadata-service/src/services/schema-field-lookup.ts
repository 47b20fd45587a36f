import type { AspectStore } from '@catalog/store'

/** Whether a dataset's latest `schemaMetadata` exists, and whether it has a field of a given path. */
export interface SchemaFieldLookup {
  readonly hasSchema: boolean
  readonly hasField: boolean
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COMMA = 0x2c
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d

/**
 * Whether the latest `schemaMetadata` of `urn` has a field whose `fieldPath` is `fieldPath`
 * (DataHub's `validateSubresourceExists`). The stored JSON text is read as bytes (on the store's
 * writer thread when it is large) and scanned, never parsed: parsing a 16 MB schema of 20,000
 * fields held the event loop ~100 ms. A store without byte reads is read through `latest`.
 */
export async function lookUpSchemaField(
  store: Pick<AspectStore, 'latest' | 'latestAspectUtf8'>,
  urn: string,
  fieldPath: string,
): Promise<SchemaFieldLookup> {
  if (store.latestAspectUtf8) {
    const [bytes] = await store.latestAspectUtf8([{ urn, aspect: 'schemaMetadata' }])
    if (!bytes) return { hasSchema: false, hasField: false }
    return { hasSchema: true, hasField: hasSchemaFieldText(bytes, fieldPath) }
  }
  const row = (await store.latest([urn], ['schemaMetadata'])).get(urn)?.[0]
  if (!row) return { hasSchema: false, hasField: false }
  const fields = Array.isArray(row.value.fields) ? (row.value.fields as Array<{ fieldPath?: unknown }>) : []
  return { hasSchema: true, hasField: fields.some((f) => f.fieldPath === fieldPath) }
}

/**
 * Whether the JSON text of a stored `schemaMetadata` (as `JSON.stringify` wrote it, UTF-8) has a
 * member `"fieldPath":<fieldPath JSON-encoded>` of an object that is an array element. In a value
 * the registry validated, that object can only be an entry of `fields`: `SchemaField` is the one
 * record with a `fieldPath` member below `schemaMetadata`, at `/fields/*` only, and undeclared
 * members are dropped; the one place an arbitrary key can sit, an attribution's `sourceDetail`
 * map, is a member value, never an array element. The same characters inside a string (a
 * description) are not a member: their quotes are escaped. A candidate found by the native
 * substring search is confirmed by looking backwards only, skipping strings by their quotes.
 */
export function hasSchemaFieldText(json: Uint8Array, fieldPath: string): boolean {
  const text = Buffer.from(json.buffer, json.byteOffset, json.byteLength)
  const needle = Buffer.from(`"fieldPath":${JSON.stringify(fieldPath)}`)
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    // An escaped quote is inside a string. An unescaped one followed by a letter opens a string
    // (a closing quote is followed by `:`, `,`, `}`, `]` or space), so `fieldPath` is a whole key.
    if (!isEscaped(text, at) && inArrayElement(text, at)) return true
  }
  return false
}

/** True when the quote at `at` is preceded by an odd number of backslashes. */
function isEscaped(text: Buffer, at: number): boolean {
  let i = at - 1
  while (i >= 0 && text[i] === BACKSLASH) i--
  return (at - 1 - i) % 2 === 1
}

/**
 * Whether the object holding the member that starts at `at` (outside any string) is an element of
 * an array: its `{` is preceded by `[` or `,` (in an object, `,` is followed by a key, not `{`).
 */
function inArrayElement(text: Buffer, at: number): boolean {
  let depth = 0
  let i = at - 1
  while (i >= 0) {
    const c = text[i]
    if (c === QUOTE) {
      i = openingQuote(text, i) - 1
      continue
    }
    if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth++
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth === 0) {
        if (c !== OPEN_OBJECT) return false
        const before = previousToken(text, i - 1)
        return before === OPEN_ARRAY || before === COMMA
      }
      depth--
    }
    i--
  }
  return false
}

/** The position of the quote opening the string closed by the quote at `closing` (-1 if none). */
function openingQuote(text: Buffer, closing: number): number {
  let j = closing > 0 ? text.lastIndexOf(QUOTE, closing - 1) : -1
  while (j > 0 && isEscaped(text, j)) j = text.lastIndexOf(QUOTE, j - 1)
  return j
}

/** The byte before `from` (inclusive) that is not JSON whitespace, or -1. */
function previousToken(text: Buffer, from: number): number {
  let i = from
  while (i >= 0) {
    const c = text[i] as number
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return c
    i--
  }
  return -1
}
