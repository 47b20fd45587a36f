import { parentPort } from 'node:worker_threads'
import { lowerThreadPriority, sharedUtf8Now } from '@catalog/core'
import { splitLongArrays } from './json-body-chunks.js'
import type { ParseCall, ParseReply, TextAt } from './json-body-protocol.js'
import { takeLargeStrings, takeLargeTexts } from './json-body-texts.js'

/**
 * The JSON body worker: decodes and parses a large request body as fastify's default JSON
 * parser does (a leading BOM skipped; `__proto__` keys and `constructor.prototype` refused) and
 * answers the value, so that the event loop pays the structured copy only. The large values at
 * the route's text paths (a snapshot's big aspects) come back as UTF-8 bytes, transferred, and
 * so do the large strings at its string paths (a proposal's aspect text), in shared memory; long
 * top-level arrays (a batch's items) come in serialized chunks, transferred.
 */
// The event loop answering requests comes first when the CPU is short.
lowerThreadPriority()
const port = parentPort
if (!port) throw new Error('json-body-worker runs as a worker thread')
const decoder = new TextDecoder()
const encoder = new TextEncoder()

port.on('message', (call: ParseCall) => {
  let reply: ParseReply
  let texts: TextAt[] = []
  let transfer: ArrayBuffer[] = []
  try {
    let text = decoder.decode(call.blocks.length === 1 ? call.blocks[0] : Buffer.concat(call.blocks))
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    const value: unknown = JSON.parse(text)
    if (poisoned(value)) reply = { id: call.id, ok: false }
    else {
      const taken = call.textPaths ? takeLargeTexts(value, call.textPaths) : []
      texts = taken.map(({ path, text }) => ({ path, bytes: encoder.encode(text), chars: text.length }))
      const strings = call.stringPaths
        ? takeLargeStrings(value, call.stringPaths).map(({ path, text }) => ({
            path,
            utf8: sharedUtf8Now(text),
          }))
        : []
      const arrays = splitLongArrays(value)
      reply = { id: call.id, ok: true, value, arrays, texts, strings }
      transfer = [...texts.map((t) => t.bytes), ...arrays.flatMap((a) => a.chunks)].map(
        (bytes) => bytes.buffer as ArrayBuffer,
      )
    }
  } catch {
    reply = { id: call.id, ok: false }
  }
  port.postMessage(reply, transfer)
})

/** Whether any object holds an own `__proto__` key, or a `constructor` object with a `prototype` key. */
function poisoned(root: unknown): boolean {
  if (root === null || typeof root !== 'object') return false
  const pending: object[] = [root]
  while (pending.length > 0) {
    const value = pending.pop() as Record<string, unknown>
    if (!Array.isArray(value)) {
      if (Object.hasOwn(value, '__proto__')) return true
      const ctor = Object.hasOwn(value, 'constructor') ? value.constructor : undefined
      if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return true
    }
    for (const key in value) {
      const item = value[key]
      if (item !== null && typeof item === 'object') pending.push(item)
    }
  }
  return false
}
