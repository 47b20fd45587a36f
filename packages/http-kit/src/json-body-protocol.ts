/** A request body for the JSON body worker: its bytes (transferred, not copied). */
export interface ParseCall {
  readonly id: number
  readonly bytes: Uint8Array
}

/** The parsed body, or that it is not a JSON document fastify's default parser would accept. */
export type ParseReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false }
