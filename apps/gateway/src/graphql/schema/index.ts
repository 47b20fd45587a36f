import { readFileSync } from 'node:fs'
import { buildSchema, type GraphQLSchema } from 'graphql'

/** DataHub's GraphQL schema (see NOTICE.md): the exact signature this server answers. */
export const DATAHUB_SDL = readFileSync(new URL('./datahub.graphql', import.meta.url), 'utf8')

let built: GraphQLSchema | undefined

/**
 * DataHub's schema, built once per process (about 0.1 s for its 927 types). Every app of the
 * process attaches the same resolvers to it, so sharing it is safe. The SDL and the schema are
 * not validated again at each start (a third of the build, and graphql-js's check at the first
 * query): `schema.test.ts` validates both. Its syntax tree keeps no source locations: they only
 * serve error messages about the SDL itself, and would hold ~22,000 tokens (4.7 of the schema's
 * 8.6 MB of heap) for the life of the process.
 */
export function datahubSchema(): GraphQLSchema {
  built ??= buildSchema(DATAHUB_SDL, { assumeValidSDL: true, assumeValid: true, noLocation: true })
  return built
}
