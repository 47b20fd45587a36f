import type { Readable } from 'node:stream'
import { errorCodes, type FastifyRequest } from 'fastify'

/**
 * A body is gathered in blocks of at most this many bytes (see {@link readBodyBlocks}): a new
 * block's memory is zeroed when it is made, which took up to 16 ms for 1 MB on a host slow to map
 * fresh pages.
 */
export const BODY_BLOCK_BYTES = 256 * 1024

/** The first block of a body that has no content-length. */
const FIRST_BLOCK_BYTES = 16 * 1024

/** The payload fastify hands a parser: the request, or what a `preParsing` hook made of it. */
type Payload = Readable & { readonly receivedEncodedLength?: number }

/**
 * Reads a request body as fastify's own parsers do, with the same refusals (a body over the
 * route's limit, or longer or shorter than its content-length; a stream error as a 400), into
 * blocks of at most {@link BODY_BLOCK_BYTES}: each chunk is copied into the current block as it
 * arrives. fastify's parsers copy the whole body into one buffer when it ends (`Buffer.concat`),
 * which held the event loop 80-130 ms for a 16 MB body on a host slow to map fresh pages; here
 * no step copies more than a chunk. A body with a content-length under a block is one block of
 * exactly its size.
 */
export function readBodyBlocks(request: FastifyRequest, payload: Payload): Promise<Uint8Array[]> {
  const limit = request.routeOptions.bodyLimit
  const contentLength = Number(request.headers['content-length'])
  const known = !Number.isNaN(contentLength)
  if (contentLength > limit) return Promise.reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
  return new Promise((resolve, reject) => {
    const blocks: Uint8Array[] = []
    let block: Uint8Array | undefined
    let used = 0
    let received = 0
    const stop = () => {
      payload.removeListener('data', onData)
      payload.removeListener('end', onEnd)
      payload.removeListener('error', onEnd)
    }
    function onData(data: Buffer | string) {
      const chunk = typeof data === 'string' ? Buffer.from(data) : data
      received += chunk.byteLength
      // The body's length after decoding must stay under the limit too (see "zip bomb").
      if (received > limit || (payload.receivedEncodedLength ?? 0) > limit) {
        stop()
        reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE())
        return
      }
      for (let from = 0; from < chunk.byteLength; ) {
        if (!block || used === block.byteLength) {
          if (block) blocks.push(block)
          const rest = known ? contentLength - (received - chunk.byteLength + from) : 0
          // Without a length, a small first block: most bodies sent in chunks are small.
          const size = rest > 0 ? rest : blocks.length === 0 ? FIRST_BLOCK_BYTES : BODY_BLOCK_BYTES
          block = new Uint8Array(Math.min(size, BODY_BLOCK_BYTES))
          used = 0
        }
        const n = Math.min(block.byteLength - used, chunk.byteLength - from)
        block.set(chunk.subarray(from, from + n), used)
        used += n
        from += n
      }
    }
    function onEnd(err?: Error & { statusCode?: number }) {
      stop()
      if (err) {
        if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400
        reject(err)
        return
      }
      if (known && (payload.receivedEncodedLength || received) !== contentLength) {
        reject(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH())
        return
      }
      if (block) blocks.push(block.subarray(0, used))
      resolve(blocks)
    }
    payload.on('data', onData)
    payload.on('end', onEnd)
    payload.on('error', onEnd)
    payload.resume()
  })
}
