import { type Authorizer, httpAuthorizer, type TokenService } from '@catalog/auth'
import type { Registry } from '@catalog/core'

/**
 * The authorizer of a gateway running apart from the metadata service (split mode), for
 * GraphQL and what it forwards to the search service: the metadata service's policies, read
 * with a service token of the system actor, as the catalog's services call each other.
 */
export function remoteAuthorizer(metadataUrl: string, registry: Registry, tokens: TokenService): Authorizer {
  return httpAuthorizer(metadataUrl, registry, () => `Bearer ${tokens.serviceToken()}`)
}
