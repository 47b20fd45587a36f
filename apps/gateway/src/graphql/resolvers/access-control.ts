import { privilegeQueries } from './privileges.js'
import { roleMutations, roleQueries } from './roles.js'

/**
 * `resolvers` with the access-control fields served: `listRoles`, `getGrantedPrivileges` and
 * `batchAssignRole` (they replace the not-served stubs).
 */
export function withAccessControlResolvers<R extends Record<string, Record<string, unknown>>>(
  resolvers: R,
): R {
  return {
    ...resolvers,
    Query: { ...resolvers.Query, ...roleQueries, ...privilegeQueries },
    Mutation: { ...resolvers.Mutation, ...roleMutations },
  }
}
