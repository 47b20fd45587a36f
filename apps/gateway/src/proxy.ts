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
 * body come back unchanged, so both modes give the same wire behaviour. Bodies are passed on as
 * they arrive, never gathered into one buffer: copying a 16 MB body at once held the event loop
 * for ~100 ms on a host slow to map fresh pages.
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
    let response: Response
    try {
      response = await fetch(target + request.url, {
        method: request.method,
        headers,
        ...(request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD'
          ? { body: Readable.from(request.body as Uint8Array[]), duplex: 'half' as const }
          : {}),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 60_000),
      })
    } catch (err) {
      throw new UnavailableError(`the ${serviceFor(request.url)} service at ${target} did not answer`, {
        cause: err,
      })
    }
    reply.status(response.status)
    const contentType = response.headers.get('content-type')
    if (contentType) reply.header('content-type', contentType)
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = response.headers.get(name)
      if (value) reply.header(name, value)
    }
    return reply.send(response.body ? Readable.fromWeb(response.body as ReadableStream) : '')
  }
  const methods: HTTPMethods[] = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']
  app.route({ method: methods, url: '/*', schema: { hide: true }, handler })
  app.route({ method: methods, url: '/', schema: { hide: true }, handler })
}
