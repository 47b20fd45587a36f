import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** Values (objects, arrays and scalars) above which a response is written in steps. */
const LARGE_RESPONSE = 20_000
/** A value holding at most this many values is written by one native JSON.stringify call. */
const SMALL = 64
/** Values written between two looks at the clock. */
const CHECK_EVERY = 64

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** An object or array being written: its keys (null for an array) and the next position. */
interface Frame {
  readonly value: Record<string, unknown> | readonly unknown[]
  readonly keys: readonly string[] | null
  next: number
  /** Whether nothing of the object has been written yet (no comma before its next member). */
  first: boolean
}

/**
 * The JSON text of `value`, exactly as `JSON.stringify(value)` gives it, built in slices of
 * about `sliceMs` with the event loop free between them. A 2,000-result GraphQL page is about a
 * megabyte of JSON; written in one call it held every other request for tens of milliseconds.
 */
export async function stringifyInTurns(value: unknown, sliceMs = 8): Promise<string> {
  return (await jsonChunksInTurns(value, sliceMs)).join('')
}

/**
 * {@link stringifyInTurns} as the text of each slice: joined, they are `JSON.stringify(value)`.
 * Sent one by one, a response of megabytes is never copied into one string. The walk is a loop
 * over a stack of the objects and arrays open, not a call (and a promise) per value; a value
 * holding at most {@link SMALL} values (a search result) is written by one native call.
 */
export async function jsonChunksInTurns(value: unknown, sliceMs = 8): Promise<string[]> {
  let sliceEnd = performance.now() + sliceMs
  const chunks: string[] = []
  let parts: string[] = []
  const stack: Frame[] = []
  // Writes `v` in an array slot or as a property; an object or array too large to write at once
  // is opened (pushed on the stack). False when JSON.stringify writes nothing for it (a property).
  const open = (v: unknown, inArray: boolean): boolean => {
    const own = typeof (v as { toJSON?: unknown } | null)?.toJSON === 'function'
    const json = own ? (v as { toJSON: () => unknown }).toJSON() : v
    if (json !== null && typeof json === 'object' && !isSmall(json)) {
      const keys = Array.isArray(json) ? null : Object.keys(json)
      parts.push(keys ? '{' : '[')
      stack.push({ value: json as Frame['value'], keys, next: 0, first: true })
      return true
    }
    const text = JSON.stringify(json)
    if (text === undefined) {
      if (inArray) parts.push('null')
      return inArray
    }
    parts.push(text)
    return true
  }
  open(value, true)
  let written = 0
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame
    if (frame.keys === null) {
      const items = frame.value as readonly unknown[]
      if (frame.next >= items.length) {
        parts.push(']')
        stack.pop()
        continue
      }
      if (frame.next > 0) parts.push(',')
      open(items[frame.next++], true)
    } else {
      if (frame.next >= frame.keys.length) {
        parts.push('}')
        stack.pop()
        continue
      }
      const key = frame.keys[frame.next++] as string
      const mark = parts.length
      parts.push(frame.first ? '' : ',', JSON.stringify(key), ':')
      if (open((frame.value as Record<string, unknown>)[key], false)) frame.first = false
      else parts.length = mark
    }
    if (++written % CHECK_EVERY === 0 && performance.now() >= sliceEnd) {
      chunks.push(parts.join(''))
      parts = []
      await nextTurn()
      sliceEnd = performance.now() + sliceMs
    }
  }
  chunks.push(parts.join(''))
  return chunks
}

/** Values {@link fits} may still count. */
let budget = 0

/** Whether `v` holds at most {@link SMALL} values (none with its own `toJSON`). */
function isSmall(v: object): boolean {
  budget = SMALL
  return fits(v)
}

function fits(v: unknown): boolean {
  if (--budget < 0) return false
  if (v === null || typeof v !== 'object') return true
  if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return false
  if (Array.isArray(v)) {
    for (const item of v) if (!fits(item)) return false
    return true
  }
  for (const key in v) if (!fits((v as Record<string, unknown>)[key])) return false
  return true
}

/** Whether `value` holds more than `limit` values (objects, arrays and scalars); stops counting there. */
export function holdsMoreThan(value: unknown, limit: number): boolean {
  let count = 0
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const v = stack.pop()
    if (++count > limit) return true
    if (v !== null && typeof v === 'object') {
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push(child)
    }
  }
  return false
}

const chunksOf = new WeakMap<FastifyReply, string[]>()

/**
 * A preSerialization hook for the GraphQL route: a large answer holding only `data` (no errors,
 * no extensions, which the route's response schema shapes) is written in steps by
 * {@link jsonChunksInTurns}; {@link sendChunks} then sends those slices as a stream. Smaller
 * answers go through the route's serializer.
 */
export async function serializeLargeInTurns(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (payload === null || typeof payload !== 'object') return payload
  const keys = Object.keys(payload)
  if (keys.length !== 1 || keys[0] !== 'data' || !holdsMoreThan(payload, LARGE_RESPONSE)) return payload
  chunksOf.set(reply, await jsonChunksInTurns(payload))
  reply.serializer(() => '')
  return payload
}

/** The onSend half of {@link serializeLargeInTurns}: the slices as a stream, written as the socket drains. */
export async function sendChunks(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const chunks = chunksOf.get(reply)
  if (!chunks) return payload
  chunksOf.delete(reply)
  return Readable.from(chunks)
}
