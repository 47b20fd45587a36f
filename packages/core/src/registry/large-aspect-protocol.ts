import type { WireError } from '../wire-error.js'

/** What the event loop asks of the large-aspect worker: one aspect's JSON text to prepare. */
export interface PrepareCall {
  readonly id: number
  /** The entity type's name (`dataset`). */
  readonly entityType: string
  readonly aspect: string
  /** The aspect value as sent: JSON text, or its UTF-8 bytes (transferred, not copied). */
  readonly text: string | Uint8Array
  /** Where the value sits in the request, for messages (`proposal`, `proposals[3]`). */
  readonly where: string
}

/** The worker's answer: the prepared aspect as text, or why it is refused. */
export type PrepareReply =
  | { readonly id: number; readonly ok: true; readonly valueJson: string; readonly edgesJson: string }
  | { readonly id: number; readonly ok: false; readonly error: WireError }
