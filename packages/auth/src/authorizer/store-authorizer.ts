import type { AspectStore } from '@catalog/store'
import { Authorizer } from './authorizer.js'
import { cachingPolicySource } from './caching-policy-source.js'
import { storePolicySource } from './store-policy-source.js'

/**
 * The authorizer of a process that holds the metadata store: policies and memberships read
 * from it, remembered between checks and dropped as the change log shows them edited.
 */
export function storeAuthorizer(
  store: Pick<AspectStore, 'scan' | 'latest' | 'changes' | 'head'>,
): Authorizer {
  return new Authorizer(cachingPolicySource(storePolicySource(store), store))
}
