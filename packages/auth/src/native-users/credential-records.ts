import type { AspectStore } from '@catalog/store'
import type { TokenProposal } from '../token-records.js'

/** DataHub's aspect names and lengths for native users and invite tokens. */
export const CORP_USER_CREDENTIALS_ASPECT = 'corpUserCredentials'
export const CORP_USER_INFO_ASPECT = 'corpUserInfo'
export const CORP_USER_STATUS_ASPECT = 'corpUserStatus'
export const CORP_USER_KEY_ASPECT = 'corpUserKey'
export const INVITE_TOKEN_ENTITY = 'inviteToken'
export const INVITE_TOKEN_ASPECT = 'inviteToken'
export const INVITE_TOKEN_KEY_ASPECT = 'inviteTokenKey'
export const INVITE_TOKEN_LENGTH = 32
export const SALT_LENGTH = 16
export const PASSWORD_RESET_TOKEN_LENGTH = 32
/** A password reset token is valid for one day. */
export const PASSWORD_RESET_TOKEN_TTL_MS = 86_400_000

/** The `corpUserCredentials` aspect, as DataHub stores it. */
export interface CorpUserCredentials {
  /** The encrypted base64 salt. */
  readonly salt: string
  /**
   * `$scrypt$ln=..,r=..,p=..$<salt>$<key>` (written here), or DataHub's
   * base64(SHA-256(salt ‖ password)) (verified, then rehashed).
   */
  readonly hashedPassword: string
  /** The encrypted reset token. */
  readonly passwordResetToken?: string
  readonly passwordResetTokenExpirationTimeMillis?: number
}

/** The `inviteToken` aspect: the encrypted token and the role it grants. */
export interface InviteTokenAspect {
  readonly token: string
  readonly role?: string
}

/**
 * Where native users' and invite tokens' records are read and written: the metadata store
 * in the metadata service, the metadata client in the gateway's GraphQL.
 */
export interface CredentialRecords {
  /** The latest values of `aspects` of `urn` (absent ones left out). */
  aspects(urn: string, aspects: readonly string[]): Promise<Record<string, unknown>>
  /** Writes the proposals through the ingest path, in order. */
  write(proposals: readonly TokenProposal[]): Promise<void>
}

/** {@link CredentialRecords} on the metadata store and the ingest service, writing as `actor`. */
export function storeCredentialRecords(
  store: Pick<AspectStore, 'latest'>,
  ingest: (proposals: readonly TokenProposal[], actor: string) => Promise<unknown>,
  actor: string,
): CredentialRecords {
  return {
    async aspects(urn, names) {
      const rows = (await store.latest([urn], names)).get(urn) ?? []
      return Object.fromEntries(rows.map((row) => [row.aspect, row.value as unknown]))
    },
    async write(proposals) {
      await ingest(proposals, actor)
    },
  }
}

/** One UPSERT proposal of a whole aspect. */
export function upsertProposal(entityUrn: string, aspectName: string, value: unknown): TokenProposal {
  return {
    entityType: entityUrn.split(':')[2] as string,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  }
}
