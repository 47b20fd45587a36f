import { parentPort } from 'node:worker_threads'
import { lowerThreadPriority } from '@catalog/core'
import type { ParseCall, ParseReply } from './json-body-protocol.js'

/**
 * The JSON body worker: decodes and parses a large request body as fastify's default JSON
 * parser does (a leading BOM skipped; `__proto__` keys and `constructor.prototype` refused) and
 * answers the value, so that the event loop pays the structured copy only.
 */
// The event loop answering requests comes first when the CPU is short.
lowerThreadPriority()
const port = parentPort
if (!port) throw new Error('json-body-worker runs as a worker thread')
const decoder = new TextDecoder()

port.on('message', (call: ParseCall) => {
  let reply: ParseReply
  try {
    let text = decoder.decode(call.bytes)
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
    const value: unknown = JSON.parse(text)
    reply = poisoned(value) ? { id: call.id, ok: false } : { id: call.id, ok: true, value }
  } catch {
    reply = { id: call.id, ok: false }
  }
  port.postMessage(reply)
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
