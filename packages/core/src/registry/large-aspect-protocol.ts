import { CatalogError, type CatalogErrorKind, errorOfKind } from '../errors.js'

/** What the event loop asks of the large-aspect worker: one aspect's JSON text to prepare. */
export interface PrepareCall {
  readonly id: number
  /** The entity type's name (`dataset`). */
  readonly entityType: string
  readonly aspect: string
  /** The aspect value as sent: JSON text. */
  readonly text: string
  /** Where the value sits in the request, for messages (`proposal`, `proposals[3]`). */
  readonly where: string
}

/** An error as it crosses the thread boundary: domain errors keep their kind. */
export interface PrepareError {
  readonly kind?: CatalogErrorKind
  readonly name: string
  readonly message: string
}

/** The worker's answer: the prepared aspect as text, or why it is refused. */
export type PrepareReply =
  | { readonly id: number; readonly ok: true; readonly valueJson: string; readonly edgesJson: string }
  | { readonly id: number; readonly ok: false; readonly error: PrepareError }

export function toPrepareError(err: unknown): PrepareError {
  if (err instanceof CatalogError) return { kind: err.kind, name: err.name, message: err.message }
  const e = err instanceof Error ? err : new Error(String(err))
  return { name: e.name, message: e.message }
}

/** The error again on this side: the same domain error class, or a plain `Error`. */
export function fromPrepareError(wire: PrepareError): Error {
  const known = wire.kind ? errorOfKind(wire.kind, wire.message) : undefined
  if (known) return known
  const err = new Error(wire.message)
  err.name = wire.name
  return err
}
