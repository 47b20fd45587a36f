import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'

/** Where `npm install` (vite build of apps/web) puts the web UI. */
export const WEB_UI_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'web', 'dist')

/** The web UI's client routes, each answered with its HTML page (none is an API path). */
const PAGES = ['/', '/login', '/search', '/entity', '/entity/lineage']

const NOT_BUILT = `<!doctype html><title>Catalog</title><p>The web UI is not built: run <code>npm run build:web</code>
(it runs at <code>npm install</code>). The API answers as usual.</p>`

/**
 * Serves the web UI (apps/web, a single-page app calling the public API): its hashed assets
 * under `/assets/` and its HTML page at each client route (`/`, `/login`, `/search`,
 * `/entity`, `/entity/lineage`), none of which is an API path. Registered before the split-mode proxy, whose
 * catch-all would otherwise claim `GET /` too.
 */
export const webUi = fp(
  async (app: FastifyInstance, opts: { dist?: string }) => {
    const dist = opts.dist ?? WEB_UI_DIST
    const index = join(dist, 'index.html')
    const built = existsSync(index)
    if (!built) app.log.warn({ dist }, 'web UI not built (npm run build:web): / answers a notice')
    if (built) {
      await app.register(fastifyStatic, {
        root: join(dist, 'assets'),
        prefix: '/assets/',
        decorateReply: false,
        immutable: true,
        maxAge: '365d',
      })
    }
    // Read per request (a small file): a rebuild is served without a restart.
    const page = async (_request: FastifyRequest, reply: FastifyReply) => {
      const html = built ? await readFile(index, 'utf8') : NOT_BUILT
      return reply
        .status(built ? 200 : 503)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(html)
    }
    for (const url of PAGES) app.get(url, { schema: { hide: true } }, page)
    // In split mode the proxy's catch-all, registered later, also claims `/`: it keeps the other methods.
    app.addHook('onRoute', (route) => {
      if (route.url !== '/' || route.handler === page || !Array.isArray(route.method)) return
      route.method = route.method.filter((m) => m !== 'GET' && m !== 'HEAD')
    })
  },
  { name: 'catalog-web-ui' },
)
