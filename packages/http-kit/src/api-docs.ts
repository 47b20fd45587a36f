import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * OpenAPI documentation generated from the same TypeBox schemas that validate the routes:
 * the UI at `/restli/docs`, the JSON at `/restli/docs/json`. Rest.li actions share a path, so
 * each is documented under `<path>?action=<name>`. Register before the routes.
 */
export const apiDocs = fp(
  async (app: FastifyInstance, opts: { readonly title: string; readonly version: string }) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: opts.title,
          version: opts.version,
          description:
            'DataHub GMS-compatible Rest.li endpoints. Actions are POSTs to `<resource>?action=<name>`; URNs in paths are percent-encoded.',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        security: [{ bearer: [] }],
      },
      transform: ({ schema, url, route }) => {
        const action = (route.constraints as { action?: string } | undefined)?.action
        return { schema, url: action ? `${url}?action=${action}` : url }
      },
    })
    await app.register(swaggerUi, { routePrefix: '/restli/docs', staticCSP: true })
  },
)
