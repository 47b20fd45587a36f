import type { Authorizer, TokenService } from '@catalog/auth'
import { type Registry, ROOT_ACTOR } from '@catalog/core'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import mercurius from 'mercurius'
import { Type } from 'typebox'
import { authorizeMutations } from './authorize-mutations.js'
import type { MetadataClient } from './clients/metadata-client.js'
import type { SearchClient } from './clients/search-client.js'
import { type CatalogContext, EntityGraph } from './context.js'
import { formatGraphqlErrors } from './errors.js'
import { GRAPHQL_LIMITS, queryLimitsRule } from './limits.js'
import { checkGraphqlRequest } from './request-check.js'
import { withAccessControlResolvers } from './resolvers/access-control.js'
import { buildResolvers } from './resolvers/index.js'
import { datahubSchema } from './schema/index.js'
import { sendChunks, serializeLargeInTurns } from './stringify-in-turns.js'

const API_PREFIX = '/api'
/** Where GraphQL is served (DataHub GMS's path). */
export const GRAPHQL_PATH = `${API_PREFIX}/graphql`
/** Where the GraphiQL page is served: a page of the web UI's build (plugins/web-ui.ts), no CDN. */
export const GRAPHIQL_PATH = `${API_PREFIX}/graphiql`

const GraphqlResponseSchema = Type.Object({
  data: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        message: Type.String(),
        locations: Type.Optional(Type.Array(Type.Object({ line: Type.Integer(), column: Type.Integer() }))),
        path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Integer()]))),
        extensions: Type.Optional(
          Type.Object(
            { code: Type.Integer(), type: Type.String(), classification: Type.String() },
            { additionalProperties: true },
          ),
        ),
      }),
    ),
  ),
  extensions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
})

export interface GraphqlOptions {
  /** The metadata client serving one request (the HTTP one forwards the request's Authorization). */
  readonly clientFor: (request: FastifyRequest) => MetadataClient
  /** The search client serving one request; absent when the server has no search service. */
  readonly searchFor?: (request: FastifyRequest) => SearchClient | undefined
  readonly registry: Registry
  readonly tokens?: TokenService
  /** Whether bearer tokens are required (`appConfig.authConfig.tokenAuthEnabled`); default false. */
  readonly authEnabled?: boolean
  /** Checks mutations and `me`'s privileges by DataHub's policies (absent: nothing is checked). */
  readonly authorizer?: Authorizer
}

/**
 * GraphQL at `POST /api/graphql` (and GET for queries), DataHub's whole schema, served by
 * mercurius in its own encapsulated context (its error handler stays here). Introspection is
 * on; depth, field count and token count are bounded (see {@link GRAPHQL_LIMITS}). GraphiQL's
 * page at `GET /api/graphiql` is served by the web UI plugin.
 */
export async function graphqlRoutes(app: FastifyInstance, options: GraphqlOptions): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.url !== GRAPHQL_PATH) return
    // DataHub's numeric `extensions.code` and integer path members (mercurius types both as strings).
    route.schema = { ...route.schema, response: { '2xx': GraphqlResponseSchema }, tags: ['graphql'] }
    const existing = route.preValidation ? [route.preValidation].flat() : []
    route.preValidation = [...existing, checkGraphqlRequest]
    const serializing = route.preSerialization ? [route.preSerialization].flat() : []
    route.preSerialization = [...serializing, serializeLargeInTurns] as typeof route.preSerialization
    const sending = route.onSend ? [route.onSend].flat() : []
    route.onSend = [...sending, sendChunks] as typeof route.onSend
  })
  const schema = datahubSchema()
  // Under `/api`, beside GRAPHIQL_PATH.
  await app.register(
    async (scoped) => {
      await scoped.register(mercurius, {
        schema,
        resolvers: authorizeMutations(withAccessControlResolvers(buildResolvers(schema))) as never,
        path: GRAPHQL_PATH.slice(API_PREFIX.length),
        // GraphiQL is served by the web UI plugin, bundled (mercurius's page loads it from a CDN).
        graphiql: false,
        allowBatchedQueries: false,
        validationRules: [queryLimitsRule()],
        graphql: { parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens } },
        errorFormatter: formatGraphqlErrors as never,
        context: (request: FastifyRequest): CatalogContext => {
          const client = options.clientFor(request)
          const search = options.searchFor?.(request)
          return {
            actor: request.actor ?? ROOT_ACTOR,
            authEnabled: options.authEnabled ?? false,
            client,
            ...(search ? { search } : {}),
            budget: { entities: 0 },
            registry: options.registry,
            graph: new EntityGraph(client, options.registry),
            ...(options.tokens ? { tokens: options.tokens } : {}),
            ...(options.authorizer ? { authorizer: options.authorizer } : {}),
            log: request.log,
          }
        },
      })
    },
    { prefix: API_PREFIX },
  )
}

export { HttpMetadataClient } from './clients/http-client.js'
export { InProcessMetadataClient } from './clients/in-process-client.js'
export type { MetadataClient } from './clients/metadata-client.js'
export { HttpSearchClient, InProcessSearchClient } from './clients/search-client.js'
export { GRAPHQL_LIMITS } from './limits.js'
