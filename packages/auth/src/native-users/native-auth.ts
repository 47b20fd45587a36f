import type { AspectStore } from '@catalog/store'
import type { TokenProposal } from '../token-records.js'
import type { TokenService } from '../token-service.js'
import { storeCredentialRecords } from './credential-records.js'
import { InviteTokenService } from './invite-token-service.js'
import { NativeUserService } from './native-user-service.js'
import { SsoSettingsReader } from './sso-settings.js'

/**
 * The native-user, invite-token and SSO-settings services of a process holding the metadata store, writing
 * as the system client's actor (DataHub's GMS writes them with its system authentication).
 */
export function nativeAuthServices(
  tokens: TokenService,
  store: Pick<AspectStore, 'latest'>,
  ingest: (proposals: readonly TokenProposal[], actor: string) => Promise<unknown>,
  actor: string,
): { users: NativeUserService; invites: InviteTokenService; sso: SsoSettingsReader } {
  const records = storeCredentialRecords(store, ingest, actor)
  const reserved = tokens.systemClientActor ? [tokens.systemClientActor] : []
  return {
    users: new NativeUserService(records, tokens.cipher, { reservedActors: reserved }),
    invites: new InviteTokenService(records, tokens.cipher),
    sso: new SsoSettingsReader(records, tokens.cipher),
  }
}
