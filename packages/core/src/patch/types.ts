/** The six RFC 6902 operations DataHub accepts in a PATCH proposal. */
export type PatchOpName = 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test'

/** One JSON Patch operation; `path` and `from` are RFC 6901 pointers (`~1` is `/`, `~0` is `~`). */
export interface PatchOperation {
  op: PatchOpName
  path: string
  /** Source pointer of `move` and `copy`. */
  from?: string
  /** Operand of `add`, `replace` and `test` (may be `null`). */
  value?: unknown
}

/**
 * A parsed PATCH body. `arrayPrimaryKeys` maps a top-level array field to the fields that key
 * its elements (a `␟` inside a key field is a nested path, e.g. `attribution␟source`); when it is
 * non-empty, or `forceGenericPatch` is set, the generic template applies instead of the aspect's own.
 */
export interface PatchRequest {
  operations: PatchOperation[]
  arrayPrimaryKeys?: Record<string, string[]>
  forceGenericPatch: boolean
}

/** Options of {@link applyPatch}. */
export interface ApplyPatchOptions {
  /** Clock for the audit stamps some default aspects carry (epoch millis; default `Date.now()`). */
  now?: number
  /** The entity, for messages. */
  urn?: string
}
