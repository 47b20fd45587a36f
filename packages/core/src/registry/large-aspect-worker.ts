import { parentPort } from 'node:worker_threads'
import { InvalidInputError } from '../errors.js'
import { lowerThreadPriority } from '../thread-priority.js'
import { toWireError } from '../wire-error.js'
import type { PrepareCall, PrepareReply } from './large-aspect-protocol.js'
import { canonicalJson } from './normalize.js'
import { Registry } from './registry.js'

/**
 * The large-aspect worker: parses, validates and normalizes an aspect's JSON text and derives
 * its edges with its own registry, answering with text (the stored form and the edges), so
 * that a 6 MB schema costs the event loop string copies only.
 */
// The event loop answering requests comes first when the CPU is short.
lowerThreadPriority()
const port = parentPort
if (!port) throw new Error('large-aspect-worker runs as a worker thread')
const registry = new Registry()
const decoder = new TextDecoder()

port.on('message', (call: PrepareCall) => {
  let reply: PrepareReply
  try {
    let raw: unknown
    try {
      raw = JSON.parse(typeof call.text === 'string' ? call.text : decoder.decode(call.text))
    } catch (err) {
      throw new InvalidInputError(`${call.where}.aspect.value is not valid JSON: ${(err as Error).message}`)
    }
    const entity = registry.entity(call.entityType)
    const value = registry.validateAspect(registry.aspect(entity, call.aspect), raw)
    const edges = registry
      .edges(entity, call.aspect, value)
      .map((e) => ({ type: e.type, destination: e.destination }))
    reply = { id: call.id, ok: true, valueJson: canonicalJson(value), edgesJson: JSON.stringify(edges) }
  } catch (err) {
    reply = { id: call.id, ok: false, error: toWireError(err) }
  }
  port.postMessage(reply)
})
