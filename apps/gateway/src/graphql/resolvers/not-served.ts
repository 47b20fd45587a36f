import type { GraphQLSchema } from 'graphql'
import { NotServedError } from '../errors.js'
import type { Resolvers } from './entities.js'

/**
 * A resolver for every root field of DataHub's schema this server does not answer yet: a clear
 * error naming the field, never an invented or empty value.
 */
export function notServedResolvers(schema: GraphQLSchema, served: Resolvers): Resolvers {
  const out: Resolvers = {}
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    if (!root) continue
    const fields: Record<string, unknown> = {}
    for (const name of Object.keys(root.getFields())) {
      if (served[root.name]?.[name]) continue
      fields[name] = () => {
        throw new NotServedError(`${root.name}.${name} is not served by this catalog yet`)
      }
    }
    out[root.name] = fields
  }
  return out
}
