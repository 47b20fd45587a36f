import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

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

/**
 * OpenAPI documentation generated from the same TypeBox schemas that validate the routes:
 * the UI at `/restli/docs`, the JSON at `/restli/docs/json`. Rest.li actions share a path, so
 * each is documented under `<path>?action=<name>`. Register before the routes.
 */
export const apiDocs = fp(async (app: FastifyInstance, opts: ApiDocsOptions) => {
  await app.register(swagger, {
    openapi: { info: info(opts), ...security },
    transform: ({ schema, url, route }) => {
      const action = (route.constraints as { action?: string } | undefined)?.action
      return { schema, url: action ? `${url}?action=${action}` : url }
    },
  })
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: true })
})

interface OpenApiDocument {
  openapi: string
  info: ReturnType<typeof info>
  paths: Record<string, Record<string, unknown>>
  components: { schemas?: Record<string, unknown>; securitySchemes: Record<string, unknown> }
  security: Array<Record<string, string[]>>
}

/**
 * The docs of services running apart, served by the gateway: the OpenAPI documents of the
 * services (`<service>/restli/docs/json`) merged on first use, so the gateway lists every
 * route it forwards. Until every service answers, the docs are retried on the next request.
 */
export const forwardedApiDocs = fp(
  async (app: FastifyInstance, opts: ApiDocsOptions & { readonly sources: readonly string[] }) => {
    const document: OpenApiDocument = { openapi: '3.0.3', info: info(opts), paths: {}, ...security }
    let merging: Promise<void> | undefined
    const merge = async () => {
      for (const source of opts.sources) {
        const res = await fetch(`${source}${DOCS_PREFIX}/json`, { signal: AbortSignal.timeout(5000) })
        if (!res.ok) throw new Error(`${source}${DOCS_PREFIX}/json answered ${res.status}`)
        const doc = (await res.json()) as Partial<OpenApiDocument>
        for (const [path, methods] of Object.entries(doc.paths ?? {})) {
          document.paths[path] = { ...document.paths[path], ...methods }
        }
        document.components.schemas = { ...document.components.schemas, ...doc.components?.schemas }
      }
    }
    await app.register(swagger, { mode: 'static', specification: { document: document as never } })
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith(DOCS_PREFIX) || Object.keys(document.paths).length > 0) return
      merging ??= merge().catch((err: unknown) => {
        merging = undefined
        document.paths = {}
        request.log.warn({ err }, 'could not read the services’ API docs')
      })
      await merging
    })
    await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: true })
  },
)

/** This catalog's own version (the GMS version it answers as is in the gateway's `/config`). */
export const CATALOG_VERSION = '0.1.0'
