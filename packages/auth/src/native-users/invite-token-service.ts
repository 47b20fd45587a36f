import { InvalidInputError, parseUrn } from '@catalog/core'
import {
  type CredentialRecords,
  INVITE_TOKEN_ASPECT,
  INVITE_TOKEN_ENTITY,
  INVITE_TOKEN_KEY_ASPECT,
  INVITE_TOKEN_LENGTH,
  type InviteTokenAspect,
  upsertProposal,
} from './credential-records.js'
import type { SecretCipher } from './secret-cipher.js'

/**
 * Finds the stored invite tokens of a role (`null`: the ones without a role), at most `limit`
 * URNs; DataHub asks its search index (`role` / `hasRole` on the `inviteToken` entity).
 */
export type InviteTokenFinder = (role: string | null, limit: number) => Promise<readonly string[]>

/**
 * Invite tokens as DataHub keeps them (its `InviteTokenService`): a random 32-letter token,
 * stored as the `inviteToken` entity `urn:li:inviteToken:<base64 SHA-256 of the token>` with
 * the encrypted token and the role it grants. A token is valid while its entity exists.
 */
export class InviteTokenService {
  constructor(
    private readonly records: CredentialRecords,
    private readonly cipher: SecretCipher,
  ) {}

  /** `urn:li:inviteToken:<hash>` of a token. */
  urnOf(token: string): string {
    return `urn:li:${INVITE_TOKEN_ENTITY}:${this.cipher.hashString(token)}`
  }

  /** Whether `token` names a stored invite token. */
  async isValid(token: string): Promise<boolean> {
    if (token.length === 0) return false
    const found = await this.records.aspects(this.urnOf(token), [
      INVITE_TOKEN_KEY_ASPECT,
      INVITE_TOKEN_ASPECT,
    ])
    return found[INVITE_TOKEN_KEY_ASPECT] !== undefined || found[INVITE_TOKEN_ASPECT] !== undefined
  }

  /** The role a stored token grants, if any. */
  async roleOf(token: string): Promise<string | undefined> {
    const found = await this.records.aspects(this.urnOf(token), [INVITE_TOKEN_ASPECT])
    return (found[INVITE_TOKEN_ASPECT] as InviteTokenAspect | undefined)?.role
  }

  /** Stores and returns a new invite token, granting `role` when given. */
  async create(role: string | null): Promise<string> {
    if (role !== null) checkRole(role)
    const token = this.cipher.urlSafeToken(INVITE_TOKEN_LENGTH)
    const aspect: InviteTokenAspect = {
      token: this.cipher.encrypt(token),
      ...(role !== null ? { role } : {}),
    }
    await this.records.write([upsertProposal(this.urnOf(token), INVITE_TOKEN_ASPECT, aspect)])
    return token
  }

  /**
   * DataHub's `getInviteToken`: the one stored token of `role` (decrypted), or a new one when
   * there is none or `regenerate`. More than one stored: they are all deleted and a new one made.
   */
  async get(role: string | null, regenerate: boolean, find: InviteTokenFinder): Promise<string> {
    if (role !== null) checkRole(role)
    const urns = await find(role, 10)
    if (urns.length > 1) {
      await this.records.write(
        urns.map((urn) => ({
          entityType: INVITE_TOKEN_ENTITY,
          entityUrn: urn,
          changeType: 'DELETE' as const,
          aspectName: INVITE_TOKEN_KEY_ASPECT,
        })),
      )
      return this.create(role)
    }
    const only = urns[0]
    if (regenerate || only === undefined) return this.create(role)
    const aspect = (await this.records.aspects(only, [INVITE_TOKEN_ASPECT]))[INVITE_TOKEN_ASPECT] as
      | InviteTokenAspect
      | undefined
    if (!aspect)
      throw new InvalidInputError(`Invite token ${only} does not contain aspect ${INVITE_TOKEN_ASPECT}`)
    return this.cipher.decrypt(aspect.token)
  }
}

function checkRole(role: string): void {
  if (parseUrn(role).entityType !== 'dataHubRole')
    throw new InvalidInputError(`${role} is not a dataHubRole urn`)
}
