import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { restliError } from './error-body.js'

export interface ApiDocsOptions {
  readonly title: string
  readonly version: string
}

const DOCS_PREFIX = '/restli/docs'

function info(opts: ApiDocsOptions) {
  return {
    title: opts.title,
    version: opts.version,
    description:
      'DataHub GMS-compatible Rest.li endpoints. Actions are POSTs to `<resource>?action=<name>`; URNs in paths are percent-encoded. Every route except /health, /ready, /config and these docs needs `Authorization: Bearer <token>` unless CATALOG_AUTH=off.',
  }
}

const security = {
  components: { securitySchemes: { bearer: { type: 'http' as const, scheme: 'bearer' } } },
  security: [{ bearer: [] }],
}

/** Documents each Rest.li action under `<path>?action=<name>` (actions share a path). */
function actionUrls({
  schema,
  url,
  route,
}: {
  schema: unknown
  url: string
  route: { constraints?: unknown }
}) {
  const action = (route.constraints as { action?: string } | undefined)?.action
  return { schema: schema as never, url: action ? `${url}?action=${action}` : url }
}

/**
 * OpenAPI documentation generated from the same TypeBox schemas that validate the routes:
 * the UI at `/restli/docs`, the JSON at `/restli/docs/json`. Register before the routes.
 */
export const apiDocs = fp(async (app: FastifyInstance, opts: ApiDocsOptions) => {
  await app.register(swagger, { openapi: { info: info(opts), ...security }, transform: actionUrls })
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: true })
})

interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>
  components?: { schemas?: Record<string, unknown> }
}

/**
 * The gateway's docs when the services run apart: its own routes (GraphQL, `/config`, health)
 * plus the routes it forwards, read from each service's `/restli/docs/json` on first use.
 * Until every service answers, the JSON answers 503 rather than an incomplete document.
 */
export const forwardedApiDocs = fp(
  async (app: FastifyInstance, opts: ApiDocsOptions & { readonly sources: readonly string[] }) => {
    const remote: Required<OpenApiDocument> & { ready: boolean } = {
      paths: {},
      components: { schemas: {} },
      ready: false,
    }
    const merge = async () => {
      for (const source of opts.sources) {
        const res = await fetch(`${source}${DOCS_PREFIX}/json`, { signal: AbortSignal.timeout(5000) })
        if (!res.ok) throw new Error(`${source}${DOCS_PREFIX}/json answered ${res.status}`)
        const doc = (await res.json()) as OpenApiDocument
        for (const [path, methods] of Object.entries(doc.paths ?? {})) {
          remote.paths[path] = { ...remote.paths[path], ...methods }
        }
        Object.assign(remote.components.schemas ?? {}, doc.components?.schemas)
      }
      remote.ready = true
    }
    await app.register(swagger, {
      openapi: { info: info(opts), ...security },
      transform: actionUrls,
      transformObject: (documentObject) => {
        const own = ('openapiObject' in documentObject ? documentObject.openapiObject : {}) as OpenApiDocument
        return {
          ...own,
          paths: { ...remote.paths, ...own.paths },
          components: {
            ...own.components,
            schemas: { ...remote.components.schemas, ...own.components?.schemas },
          },
        } as never
      },
    })
    let merging: Promise<void> | undefined
    app.addHook('onRequest', async (request, reply) => {
      const path = request.url.split('?', 1)[0] ?? ''
      if (remote.ready || (path !== `${DOCS_PREFIX}/json` && path !== `${DOCS_PREFIX}/yaml`)) return
      merging ??= merge().finally(() => {
        merging = undefined
      })
      try {
        await merging
      } catch (err) {
        request.log.warn({ err }, 'could not read the services’ API docs')
        return reply
          .status(503)
          .send(restliError(503, 'The services’ API docs cannot be read yet; retry shortly'))
      }
    })
    await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: true })
  },
)

/** This catalog's own version (the GMS version it answers as is in the gateway's `/config`). */
export const CATALOG_VERSION = '0.1.0'
