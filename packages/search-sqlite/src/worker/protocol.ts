import { CatalogError, type CatalogErrorKind, errorOfKind } from '@catalog/core'
import type { SearchIndex } from '@catalog/search'

/** The index operations the worker runs, by name. */
export type IndexOp = keyof SearchIndex

/** What the worker is started with (`workerData`). */
export interface WorkerInit {
  readonly file: string
  readonly cacheMb?: number
}

/** Main thread to worker: run `op` with `args`. */
export interface WorkerCall {
  readonly id: number
  readonly op: IndexOp
  readonly args: readonly unknown[]
}

/** An error as it crosses the thread boundary: domain errors keep their kind. */
export interface WireError {
  readonly kind?: CatalogErrorKind
  readonly name: string
  readonly message: string
}

/** Worker to main thread: the answer to call `id`, or its failure; or the start-up outcome. */
export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly error: WireError }
  | { readonly ready: true }
  | { readonly ready: false; readonly error: WireError }

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
