import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { GRAPHIQL_PATH } from '../graphql/index.js'

/** Where `npm install` (vite build of apps/web) puts the web UI. */
export const WEB_UI_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'web', 'dist')

/** The web UI's client routes, each answered with its HTML page (none is an API path). */
const PAGES = ['/', '/login', '/search', '/browse', '/entity', '/entity/lineage']

/** GraphiQL, a second page of the same build, bundled with its editor: no CDN at run time. */
const GRAPHIQL_PAGE = 'graphiql.html'

const NOT_BUILT = `<!doctype html><title>Catalog</title><p>The web UI is not built: run <code>npm run build:web</code>
(it runs at <code>npm install</code>). The API answers as usual.</p>`

/**
 * Serves the web UI (apps/web, a single-page app calling the public API): its hashed assets
 * under `/assets/` and its HTML page at each client route (`/`, `/login`, `/search`,
 * `/browse`, `/entity`, `/entity/lineage`), none of which is an API path; and GraphiQL at
 * `/api/graphiql`, built beside it. Registered before the split-mode proxy, whose
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
    const html = (file: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
      const body = built ? await readFile(file, 'utf8') : NOT_BUILT
      return reply
        .status(built ? 200 : 503)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(body)
    }
    const page = html(index)
    for (const url of PAGES) app.get(url, { schema: { hide: true } }, page)
    app.get(GRAPHIQL_PATH, { schema: { hide: true } }, html(join(dist, GRAPHIQL_PAGE)))
    // In split mode the proxy's catch-all, registered later, also claims `/`: it keeps the other methods.
    app.addHook('onRoute', (route) => {
      if (route.url !== '/' || route.handler === page || !Array.isArray(route.method)) return
      route.method = route.method.filter((m) => m !== 'GET' && m !== 'HEAD')
    })
  },
  { name: 'catalog-web-ui' },
)
