import { Readable } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** Arrays longer than this are written element by element, yielding when a slice's time is up. */
const LONG_ARRAY = 64
/** Objects deeper than this are written in one JSON.stringify call (results sit a few levels down). */
const MAX_DEPTH = 8
/** Values (objects, arrays and scalars) above which a response is written in steps. */
const LARGE_RESPONSE = 20_000

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * The JSON text of `value`, exactly as `JSON.stringify(value)` gives it, built in slices of
 * about `sliceMs` with the event loop free between them: long arrays are written one element
 * at a time, and the writer waits a turn whenever its slice is spent. A 2,000-result GraphQL
 * page is about a megabyte of JSON; written in one call it held every other request for tens
 * of milliseconds.
 */
export async function stringifyInTurns(value: unknown, sliceMs = 8): Promise<string> {
  return (await jsonChunksInTurns(value, sliceMs)).join('')
}

/**
 * {@link stringifyInTurns} as the text of each slice: joined, they are `JSON.stringify(value)`.
 * Sent one by one, a response of megabytes is never copied into one string.
 */
export async function jsonChunksInTurns(value: unknown, sliceMs = 8): Promise<string[]> {
  let sliceEnd = performance.now() + sliceMs
  const chunks: string[] = []
  let parts: string[] = []
  const yieldIfSpent = async () => {
    if (performance.now() < sliceEnd) return
    chunks.push(parts.join(''))
    parts = []
    await nextTurn()
    sliceEnd = performance.now() + sliceMs
  }
  // What JSON.stringify writes for `v` in an array slot or as a property (undefined: nothing).
  const write = async (v: unknown, depth: number, inArray: boolean): Promise<boolean> => {
    const own = typeof (v as { toJSON?: unknown } | null)?.toJSON === 'function'
    const json = own ? (v as { toJSON: () => unknown }).toJSON() : v
    if (Array.isArray(json) && json.length > LONG_ARRAY) {
      parts.push('[')
      for (let i = 0; i < json.length; i++) {
        if (i > 0) parts.push(',')
        await write(json[i], depth + 1, true)
        await yieldIfSpent()
      }
      parts.push(']')
      return true
    }
    if (json !== null && typeof json === 'object' && !Array.isArray(json) && depth < MAX_DEPTH) {
      parts.push('{')
      let first = true
      for (const key of Object.keys(json)) {
        const mark = parts.length
        parts.push(first ? '' : ',', JSON.stringify(key), ':')
        if (await write((json as Record<string, unknown>)[key], depth + 1, false)) first = false
        else parts.length = mark
      }
      parts.push('}')
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
  await write(value, 0, true)
  chunks.push(parts.join(''))
  return chunks
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
