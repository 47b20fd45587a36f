import { readFileSync } from 'node:fs'
import { buildSchema, type GraphQLSchema } from 'graphql'

/** DataHub's GraphQL schema (see NOTICE.md): the exact signature this server answers. */
export const DATAHUB_SDL = readFileSync(new URL('./datahub.graphql', import.meta.url), 'utf8')

let built: GraphQLSchema | undefined

/**
 * DataHub's schema, built once per process (about 0.2 s for its 927 types). Every app of the
 * process attaches the same resolvers to it, so sharing it is safe. The SDL and the schema are
 * not validated again at each start (a third of the build, and graphql-js's check at the first
 * query): `schema.test.ts` validates both.
 */
export function datahubSchema(): GraphQLSchema {
  built ??= buildSchema(DATAHUB_SDL, { assumeValidSDL: true, assumeValid: true })
  return built
}
