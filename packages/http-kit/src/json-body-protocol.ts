/**
 * Where a route's body holds values that may be large (the aspects of a snapshot): a value at
 * one of `paths` whose JSON text is `minChars` long or longer comes to the handler as a
 * `JsonText` instead of parsed. A path is a list of member names and array indexes, `*`
 * standing for every member or item.
 */
export interface JsonTextPaths {
  readonly paths: ReadonlyArray<readonly string[]>
  readonly minChars: number
}

/** A request body for the JSON body worker: its bytes in blocks, one after the other (transferred, not copied). */
export interface ParseCall {
  readonly id: number
  readonly blocks: readonly Uint8Array[]
  readonly textPaths?: JsonTextPaths
  /** Where large strings may be (a proposal's aspect text): those come back as UTF-8 ({@link StringAt}). */
  readonly stringPaths?: JsonTextPaths
}

/** One value taken out of the body as text: where it was, its UTF-8 bytes (transferred) and length. */
export interface TextAt {
  readonly path: ReadonlyArray<string | number>
  readonly bytes: Uint8Array
  readonly chars: number
}

/** A string taken out of the body: where it was, and its UTF-8 bytes in shared memory. */
export interface StringAt {
  readonly path: ReadonlyArray<string | number>
  readonly utf8: Uint8Array
}

/** A top-level array member of the body, sent apart as V8-serialized chunks of items (transferred). */
export interface ArrayInChunks {
  readonly key: string
  readonly chunks: readonly Uint8Array[]
}

/**
 * The parsed body, or that it is not a JSON document fastify's default parser would accept.
 * Long top-level arrays come in `arrays` (the body holds `[]` in their place), large values at
 * the text paths in `texts` and large strings at the string paths in `strings` (the body holds
 * `null` in their place; their paths count items of the whole arrays).
 */
export type ParseReply =
  | {
      readonly id: number
      readonly ok: true
      readonly value: unknown
      readonly arrays: readonly ArrayInChunks[]
      readonly texts: readonly TextAt[]
      readonly strings: readonly StringAt[]
    }
  | { readonly id: number; readonly ok: false }
