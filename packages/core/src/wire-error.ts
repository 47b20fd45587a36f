import { CatalogError, type CatalogErrorKind, errorOfKind } from './errors.js'

/** An error as it crosses a worker thread's boundary: domain errors keep their kind. */
export interface WireError {
  readonly kind?: CatalogErrorKind
  readonly name: string
  readonly message: string
}

export function toWireError(err: unknown): WireError {
  if (err instanceof CatalogError) return { kind: err.kind, name: err.name, message: err.message }
  const e = err instanceof Error ? err : new Error(String(err))
  return { name: e.name, message: e.message }
}

/** The error again on this side: the same domain error class, or a plain `Error`. */
export function fromWireError(wire: WireError): Error {
  const known = wire.kind ? errorOfKind(wire.kind, wire.message) : undefined
  if (known) return known
  const err = new Error(wire.message)
  err.name = wire.name
  return err
}
