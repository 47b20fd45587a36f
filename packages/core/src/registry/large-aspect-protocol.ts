import type { WireError } from '../wire-error.js'

/** What the event loop asks of the large-aspect worker: one aspect's JSON text to prepare. */
export interface PrepareCall {
  readonly id: number
  /** The entity type's name (`dataset`). */
  readonly entityType: string
  readonly aspect: string
  /** The aspect value as sent: JSON text, or its UTF-8 bytes (transferred or shared, not copied). */
  readonly text: string | Uint8Array
  /** Where the value sits in the request, for messages (`proposal`, `proposals[3]`). */
  readonly where: string
}

/** What the event loop asks of the large-aspect worker: a PATCH to apply to an aspect's latest value, then prepare. */
export interface PatchCall {
  readonly id: number
  /** The entity type's name (`dataset`). */
  readonly entityType: string
  readonly aspect: string
  /** The entity's URN (templates name it in their messages). */
  readonly urn: string
  /**
   * The latest stored value as the UTF-8 bytes of its JSON text (best on a `SharedArrayBuffer`:
   * shared, not copied); null when the aspect has none (the patch starts from its default).
   */
  readonly latest: Uint8Array | null
  /**
   * The patch as sent (a JSON Patch, or DataHub's `{patch, arrayPrimaryKeys}`), as JSON text or its
   * UTF-8 bytes (best on a `SharedArrayBuffer`: shared, not copied, and reusable for another try).
   */
  readonly patch: string | Uint8Array
  /** Where the patch sits in the request, for messages (`proposal`, `proposals[3]`). */
  readonly where: string
}

/**
 * The worker's answer: the prepared aspect (its stored text as UTF-8 bytes in shared memory, so
 * that megabytes reach the event loop without a copy; its edges as text), or why it is refused. A refused patch says
 * whether the patch itself was malformed (`input`: bad JSON, not a patch) or its result was
 * refused (`apply`: an operation failed, the result breaks the schema).
 */
export type PrepareReply =
  | { readonly id: number; readonly ok: true; readonly valueUtf8: Uint8Array; readonly edgesJson: string }
  | { readonly id: number; readonly ok: false; readonly error: WireError; readonly stage?: 'input' | 'apply' }
