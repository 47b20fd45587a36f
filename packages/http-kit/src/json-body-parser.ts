import type { Readable } from 'node:stream'
import { deserialize } from 'node:v8'
import { decodeInPieces, JsonText, TimeSlices, WorkerCalls } from '@catalog/core'
import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify'
import { readBodyBlocks } from './body-blocks.js'
import type {
  ArrayInChunks,
  JsonTextPaths,
  ParseCall,
  ParseReply,
  StringAt,
  TextAt,
} from './json-body-protocol.js'
import { warmOnLargeBody } from './warm-on-large-body.js'

export type { JsonTextPaths } from './json-body-protocol.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Large values of the body that reach the handler as `JsonText` (see {@link JsonTextPaths}). */
    jsonText?: JsonTextPaths
    /** Where large strings of the body may be: they come with their UTF-8 bytes (see {@link largeStringUtf8}). */
    largeStrings?: JsonTextPaths
  }
}

/**
 * A JSON body of at least this many bytes is decoded and parsed on the JSON body worker; a
 * smaller one on the event loop, where it costs less than the hop (~1.5 ms for 256 KB). A 7 MB
 * body held the event loop ~45 ms.
 */
export const THREAD_BODY_BYTES = 256 * 1024

/** The JSON body worker stops after this long without a body to parse (the next one starts it again). */
export const JSON_BODY_WORKER_IDLE_MS = 60_000

/**
 * The JSON body worker's V8 young generation, in MB. Its garbage is each body's parse, handed
 * over at once: with node's default (32) its heap held 39-49 MB after the ingest benchmark's
 * batches of 1,000 proposals, 7-19 MB with this; a 10 MB body parses with no more CPU.
 */
export const JSON_BODY_YOUNG_GENERATION_MB = 8

const calls = new WorkerCalls<ParseCall, ParseReply>(
  new URL('./json-body-worker.mjs', import.meta.url),
  'the JSON body worker stopped; retry the request',
  JSON_BODY_WORKER_IDLE_MS,
  { maxYoungGenerationSizeMb: JSON_BODY_YOUNG_GENERATION_MB },
)

/**
 * Replaces fastify's `application/json` parser with one that gives the same answers (the same
 * errors for a body too large, empty or malformed, `__proto__` and `constructor.prototype`
 * refused) and parses a body of {@link THREAD_BODY_BYTES} or more on a worker thread, its bytes
 * gathered in blocks as they arrive ({@link readBodyBlocks}) and handed over without a copy. A
 * route whose config names `jsonText` paths gets the large values there as {@link JsonText}, and
 * one that names `largeStrings` paths the large strings there with their UTF-8 bytes (from the
 * worker only: a smaller body holds no value worth it).
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  // The worker starts when a large body is announced, so its start overlaps the upload.
  warmOnLargeBody(app, THREAD_BODY_BYTES, warmJsonBodyWorker)
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', jsonBodyParser(app))
}

/**
 * The parser {@link installJsonBodyParser} installs for `application/json`, for another JSON
 * content type (`application/json-patch+json`): a large body is parsed on the JSON body worker.
 */
export function jsonBodyParser(
  app: FastifyInstance,
): (request: FastifyRequest, payload: Readable) => Promise<unknown> {
  const inline = app.getDefaultJsonParser('error', 'error')
  return async (request, payload) => {
    const blocks = await readBodyBlocks(request, payload)
    const size = blocks.reduce((n, block) => n + block.byteLength, 0)
    if (size >= THREAD_BODY_BYTES) {
      const config = request.routeOptions.config
      return parseOnWorker(blocks, config?.jsonText, config?.largeStrings)
    }
    const [one] = blocks
    const bytes =
      blocks.length === 1 && one
        ? Buffer.from(one.buffer, one.byteOffset, one.byteLength)
        : Buffer.concat(blocks)
    // fastify's own parser takes a string or a buffer (secure-json-parse decodes a buffer).
    return new Promise((resolve, reject) =>
      inline(request, bytes as unknown as string, (err, value) => (err ? reject(err) : resolve(value))),
    )
  }
}

/**
 * Parses JSON bytes (in blocks, one after the other, that the caller gives up: each block's whole
 * buffer moves to the worker without a copy, so a block must not share its buffer with anything
 * else, as a pooled `Buffer` does) on the worker (started at the first call or when a large body is
 * announced; it does not keep the process alive, and stops after {@link JSON_BODY_WORKER_IDLE_MS}
 * without a call); the large values at `textPaths` come as {@link JsonText}, and the large strings
 * at `stringPaths` as strings whose bytes {@link largeStringUtf8} gives.
 */
export async function parseOnWorker(
  blocks: readonly Uint8Array[],
  textPaths?: JsonTextPaths,
  stringPaths?: JsonTextPaths,
): Promise<unknown> {
  const buffers = new Set(blocks.map((block) => block.buffer as ArrayBuffer))
  const call = { blocks, ...(textPaths ? { textPaths } : {}), ...(stringPaths ? { stringPaths } : {}) }
  const reply = await calls.call(call, [...buffers])
  if (!reply.ok) throw new errorCodes.FST_ERR_CTP_INVALID_JSON_BODY()
  for (const array of reply.arrays) await join(reply.value as Record<string, unknown>, array)
  for (const text of reply.texts) put(reply.value, text)
  const slices = new TimeSlices()
  for (const string of reply.strings) await putString(reply.value, string, slices)
  return reply.value
}

/** The large strings the worker sent as UTF-8, by the object that holds them and their key there. */
const stringsUtf8 = new WeakMap<
  object,
  Map<string | number, { readonly text: string; readonly utf8: Uint8Array }>
>()

/**
 * The UTF-8 bytes (in shared memory) of `holder[key]` when it is a large string of a body the
 * worker parsed, at one of the route's `largeStrings` paths, and was not replaced since: a worker
 * thread can take the bytes without the string ever being encoded or copied again.
 */
export function largeStringUtf8(holder: object, key: string | number): Uint8Array | undefined {
  const found = stringsUtf8.get(holder)?.get(key)
  return found && (holder as Record<string | number, unknown>)[key] === found.text ? found.utf8 : undefined
}

/**
 * Starts the JSON body worker now unless it runs (a large body was announced) rather than when
 * that body has arrived, whose parse would otherwise wait for the worker's start. It does not
 * keep the process alive, and stops again when idle.
 */
export function warmJsonBodyWorker(): void {
  calls.warm()
}

/** Whether the JSON body worker is running (it starts at a large body and stops when idle). */
export function jsonBodyWorkerRunning(): boolean {
  return calls.running
}

/** Puts a long array sent in chunks back, a chunk per event-loop turn. */
async function join(body: Record<string, unknown>, { key, chunks }: ArrayInChunks): Promise<void> {
  const items: unknown[] = []
  for (const chunk of chunks) {
    await new Promise(setImmediate)
    for (const item of deserialize(chunk) as unknown[]) items.push(item)
  }
  body[key] = items
}

/** Puts a value taken out by the worker back where it was, as {@link JsonText}. */
function put(root: unknown, { path, bytes, chars }: TextAt): void {
  holderOf(root, path)[path[path.length - 1] as string | number] = new JsonText(bytes, chars)
}

/**
 * Puts a string taken out by the worker back where it was, decoded in pieces (the event loop
 * gets a turn whenever `slices` is due), and keeps its bytes for {@link largeStringUtf8}.
 */
async function putString(root: unknown, { path, utf8 }: StringAt, slices: TimeSlices): Promise<void> {
  const holder = holderOf(root, path)
  const key = path[path.length - 1] as string | number
  const text = await decodeInPieces(utf8, slices)
  holder[key] = text
  const held = stringsUtf8.get(holder) ?? new Map()
  held.set(key, { text, utf8 })
  stringsUtf8.set(holder, held)
}

/** The object or array that holds the value at `path`. */
function holderOf(root: unknown, path: ReadonlyArray<string | number>): Record<string | number, unknown> {
  let holder = root as Record<string | number, unknown>
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>
  return holder
}
