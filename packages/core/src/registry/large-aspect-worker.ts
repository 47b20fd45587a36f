import { parentPort } from 'node:worker_threads'
import { InvalidInputError } from '../errors.js'
import { applyPatch } from '../patch/apply.js'
import { parsePatchBody } from '../patch/parse-patch-body.js'
import { lowerThreadPriority } from '../thread-priority.js'
import { sharedUtf8Now } from '../utf8-in-shared-memory.js'
import { toWireError } from '../wire-error.js'
import type { PatchCall, PrepareCall, PrepareReply } from './large-aspect-protocol.js'
import { canonicalJson } from './normalize.js'
import { Registry } from './registry.js'

/**
 * The large-aspect worker: parses, validates and normalizes an aspect's JSON text (or applies a
 * PATCH to the latest value's text first) and derives its edges with its own registry, answering
 * with text (the stored form as shared UTF-8 bytes, the edges), so that a 16 MB schema costs the
 * event loop nothing until it is read.
 */
// The event loop answering requests comes first when the CPU is short.
lowerThreadPriority()
const port = parentPort
if (!port) throw new Error('large-aspect-worker runs as a worker thread')
const registry = new Registry()
// A leading U+FEFF stays in the text, as in a string: JSON.parse refuses it either way.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true })

/** JSON text sent in a request, parsed; a refusal names where it sits, as the event-loop path does. */
function parseSent(text: string, where: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    throw new InvalidInputError(`${where}.aspect.value is not valid JSON: ${(err as Error).message}`)
  }
}

/** The validated value and its edges, as text. */
function prepared(id: number, entityType: string, aspect: string, raw: unknown): PrepareReply {
  const entity = registry.entity(entityType)
  const value = registry.validateAspect(registry.aspect(entity, aspect), raw)
  const edges = registry
    .edges(entity, aspect, value)
    .map((e) => ({ type: e.type, destination: e.destination }))
  return { id, ok: true, valueUtf8: sharedUtf8Now(canonicalJson(value)), edgesJson: JSON.stringify(edges) }
}

/** As the batch builder and the store's transaction do it on the event loop, in the same steps. */
function patch(call: PatchCall): PrepareReply {
  let request: ReturnType<typeof parsePatchBody>
  try {
    const text = typeof call.patch === 'string' ? call.patch : decoder.decode(call.patch)
    request = parsePatchBody(parseSent(text, call.where))
  } catch (err) {
    return { id: call.id, ok: false, error: toWireError(err), stage: 'input' }
  }
  try {
    const current =
      call.latest === null ? undefined : (JSON.parse(decoder.decode(call.latest)) as Record<string, unknown>)
    const raw = applyPatch(call.aspect, current, request, { urn: call.urn })
    return prepared(call.id, call.entityType, call.aspect, raw)
  } catch (err) {
    return { id: call.id, ok: false, error: toWireError(err), stage: 'apply' }
  }
}

port.on('message', (call: PrepareCall | PatchCall) => {
  let reply: PrepareReply
  if ('patch' in call) reply = patch(call)
  else {
    try {
      const text = typeof call.text === 'string' ? call.text : decoder.decode(call.text)
      reply = prepared(call.id, call.entityType, call.aspect, parseSent(text, call.where))
    } catch (err) {
      reply = { id: call.id, ok: false, error: toWireError(err) }
    }
  }
  port.postMessage(reply)
})
