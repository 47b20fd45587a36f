import { nativeAuthServices, type TokenService } from '@catalog/auth'
import { SYSTEM_ACTOR } from '@catalog/core'
import type { AuthServiceRoutesOptions } from '../routes/auth-service.js'
import type { MetadataServices } from './index.js'

/** The options of `authServiceRoutes` on a process holding the metadata store. */
export function authServiceOptions(
  auth: { readonly enabled: boolean; readonly tokens?: TokenService; readonly sessionTtlMs?: number },
  metadata: Pick<MetadataServices, 'store' | 'ingest'>,
): AuthServiceRoutesOptions {
  const tokens = auth.tokens as TokenService
  const writer = tokens.systemClientActor ?? SYSTEM_ACTOR
  return {
    tokens,
    enabled: auth.enabled,
    ...nativeAuthServices(
      tokens,
      metadata.store,
      (p, actor) => metadata.ingest.ingestProposals(p, actor),
      writer,
    ),
    ...(auth.sessionTtlMs !== undefined ? { sessionTtlMs: auth.sessionTtlMs } : {}),
  }
}
