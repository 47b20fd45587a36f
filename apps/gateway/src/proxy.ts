import { Readable } from 'node:stream'
import type { ReadableStream } from 'node:stream/web'
import { UnavailableError } from '@catalog/core'
import { actionOf, REQUEST_ID_HEADER, readBodyBlocks } from '@catalog/http-kit'
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { isInternalPath } from './plugins/internal-guard.js'

/** Where a request goes when the apps run apart. */
export type Service = 'metadata' | 'search'

/** Rest.li actions on `/entities` that the search service answers. */
export const SEARCH_ACTIONS: ReadonlySet<string> = new Set([
  'search',
  'searchAcrossEntities',
  'browse',
  'browseV2',
  'autocomplete',
  'list',
  'filter',
])

/** Routes a request by path and action: search, browse and autocomplete go to search; the rest to metadata. */
export function serviceFor(url: string): Service {
  const path = url.split('?', 1)[0] ?? ''
  if (path === '/entities' || path === '/entities/') {
    const action = actionOf(url)
    if (action && SEARCH_ACTIONS.has(action)) return 'search'
  }
  return 'metadata'
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'host',
  'content-length',
  'upgrade',
])

/** Response headers clients read besides the content type (OpenAPI writes answer a `traceparent`). */
const FORWARDED_RESPONSE_HEADERS = ['retry-after', 'traceparent', 'not-found-reason']

export interface ProxyOptions {
  readonly targets: Readonly<Record<Service, string>>
  /** Timeout of one forwarded request, ms. */
  readonly timeoutMs?: number
}

/**
 * Forwards every route this context does not answer itself to the owning service, byte for
 * byte: method, path, query, body and the headers that matter; the status, content type and
 * body come back unchanged, so both modes give the same wire behaviour. No body is ever copied
 * into one buffer (a 16 MB copy held the event loop ~100 ms on a host slow to map fresh pages):
 * a request's is read in blocks and sent on as those blocks, an answer streams back as it comes.
 */
export async function proxyRoutes(app: FastifyInstance, opts: ProxyOptions): Promise<void> {
  app.removeAllContentTypeParsers()
  // The body's blocks as they came (fastify's limits and errors), sent on as they are.
  app.addContentTypeParser('*', (request: FastifyRequest, payload: Readable) =>
    readBodyBlocks(request, payload),
  )
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    // The services' internal routes are for each other, never forwarded from the public side.
    if (isInternalPath(request.url)) return reply.callNotFound()
    const target = opts.targets[serviceFor(request.url)]
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue
      headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    headers[REQUEST_ID_HEADER] = request.id
    const blocks =
      request.method !== 'GET' && request.method !== 'HEAD'
        ? (request.body as Uint8Array[] | undefined)
        : undefined
    // Its length as read (the service's own limits and its workers' early start go by it).
    if (blocks) headers['content-length'] = String(blocks.reduce((n, block) => n + block.byteLength, 0))
    // The timeout is the service's to answer; its answer then streams to the client at the client's pace.
    const abort = new AbortController()
    const timer = setTimeout(() => abort.abort(new Error('timed out')), opts.timeoutMs ?? 60_000)
    let response: Response
    try {
      response = await fetch(target + request.url, {
        method: request.method,
        headers,
        ...(blocks ? { body: each(blocks), duplex: 'half' as const } : {}),
        signal: abort.signal,
      })
    } catch (err) {
      throw new UnavailableError(`the ${serviceFor(request.url)} service at ${target} did not answer`, {
        cause: err,
      })
    } finally {
      clearTimeout(timer)
    }
    reply.status(response.status)
    const contentType = response.headers.get('content-type')
    if (contentType) reply.header('content-type', contentType)
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers.get(name)
      if (value) reply.header(name, value)
    }
    // fetch decodes a compressed answer: its length holds only for one sent as it is.
    const length = response.headers.get('content-length')
    if (length && !response.headers.get('content-encoding')) reply.header('content-length', length)
    return reply.send(response.body ? Readable.fromWeb(response.body as ReadableStream) : '')
  }
  const methods: HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']
  app.route({ method: methods, url: '/*', schema: { hide: true }, handler })
  app.route({ method: methods, url: '/', schema: { hide: true }, handler })
}

/**
 * The blocks one after the other, as a request body fetch streams (faster than a `Readable` of
 * them), a block per event-loop turn: fetch pulls the next as soon as it has written one, all in
 * one chain of microtasks, which held the gateway's event loop ~0.7 s for 9 MB.
 */
async function* each(blocks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const [i, block] of blocks.entries()) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve))
    yield block
  }
}
