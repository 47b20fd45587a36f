import { serialize } from 'node:v8'
import type { ArrayInChunks } from './json-body-protocol.js'

/**
 * Items of a top-level array per chunk. Structured-copying a parsed body to the event loop is
 * one task that cannot yield: a batch of 10,000 snapshots took ~60-120 ms. In chunks of this
 * many items (each a few milliseconds to deserialize) the event loop answers others between them.
 */
export const CHUNK_ITEMS = 500

/**
 * Takes each top-level array member of a body longer than {@link CHUNK_ITEMS} out (leaving `[]`)
 * and returns it as V8-serialized chunks of items, each its own buffer (to be transferred).
 */
export function splitLongArrays(body: unknown): ArrayInChunks[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return []
  const out: ArrayInChunks[] = []
  const members = body as Record<string, unknown>
  for (const key of Object.keys(members)) {
    const items = members[key]
    if (!Array.isArray(items) || items.length <= CHUNK_ITEMS) continue
    const chunks: Uint8Array[] = []
    for (let at = 0; at < items.length; at += CHUNK_ITEMS) {
      const bytes = serialize(items.slice(at, at + CHUNK_ITEMS))
      // A buffer that owns its memory moves without a copy.
      const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      chunks.push(owned ? bytes : new Uint8Array(bytes))
    }
    members[key] = []
    out.push({ key, chunks })
  }
  return out
}
