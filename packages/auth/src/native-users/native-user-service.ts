import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  parseUrn,
  ROOT_ACTOR,
  SYSTEM_ACTOR,
} from '@catalog/core'
import {
  CORP_USER_CREDENTIALS_ASPECT,
  CORP_USER_INFO_ASPECT,
  CORP_USER_KEY_ASPECT,
  CORP_USER_STATUS_ASPECT,
  type CorpUserCredentials,
  type CredentialRecords,
  PASSWORD_RESET_TOKEN_LENGTH,
  PASSWORD_RESET_TOKEN_TTL_MS,
  upsertProposal,
} from './credential-records.js'
import {
  DEFAULT_SCRYPT_PARAMS,
  isScryptHash,
  needsRehash,
  type ScryptParams,
  scryptHash,
  scryptVerify,
} from './password-hash.js'
import { SecretCipher } from './secret-cipher.js'

/** What `/auth/signUp` stores for a new native user. */
export interface NewNativeUser {
  readonly userUrn: string
  readonly fullName: string
  readonly email: string
  /** Optional, as in DataHub: absent leaves `corpUserInfo.title` unset. */
  readonly title?: string
  readonly password: string
}

/** DataHub's `LoginDenialReason` values this catalog answers. */
export type LoginDenialReason = 'HARD_DELETED' | 'SOFT_DELETED' | 'SUSPENDED' | 'NOT_PROVISIONED'

export interface NativeUserServiceOptions {
  /** The actors no one may sign up as: the system client's user besides DataHub's own. */
  readonly reservedActors?: readonly string[]
  readonly now?: () => number
  /** The scrypt cost of new and rehashed passwords (default {@link DEFAULT_SCRYPT_PARAMS}). */
  readonly scrypt?: ScryptParams
}

/**
 * Native users as DataHub's GMS keeps them (its `NativeUserService`): sign-up stores
 * `corpUserInfo`, `corpUserStatus` and `corpUserCredentials`; reset tokens are encrypted into
 * the credentials with a one-day expiry. Failures carry DataHub's messages.
 *
 * Passwords are hashed with scrypt: `hashedPassword` is `$scrypt$ln=..,r=..,p=..$<salt>$<key>`
 * (the parameters travel with the hash) and `salt` holds the same salt encrypted as DataHub
 * keeps it, so the aspect stays a valid `CorpUserCredentials`. Credentials in DataHub's own
 * form (encrypted salt, base64 SHA-256 of salt ‖ password, e.g. from a DataHub backup) still
 * verify, and are replaced by a scrypt hash on their first successful verification.
 */
export class NativeUserService {
  private readonly reserved: ReadonlySet<string>
  private readonly now: () => number
  private readonly scryptParams: ScryptParams

  constructor(
    private readonly records: CredentialRecords,
    private readonly cipher: SecretCipher,
    options: NativeUserServiceOptions = {},
  ) {
    this.reserved = new Set([
      SYSTEM_ACTOR,
      ROOT_ACTOR,
      'urn:li:corpuser:UNKNOWN',
      ...(options.reservedActors ?? []),
    ])
    this.now = options.now ?? Date.now
    this.scryptParams = options.scrypt ?? DEFAULT_SCRYPT_PARAMS
  }

  /** True when `userUrn` may not be signed up for (the system client, DataHub's root and unknown actors). */
  isReserved(userUrn: string): boolean {
    return this.reserved.has(userUrn)
  }

  /** Creates a native user; refused when the user exists or is reserved. */
  async createNativeUser(user: NewNativeUser): Promise<void> {
    const urn = corpUserUrn(user.userUrn)
    if (user.password.length === 0) throw new InvalidInputError('password must not be empty')
    const existing = await this.records.aspects(urn, [CORP_USER_KEY_ASPECT])
    if (existing[CORP_USER_KEY_ASPECT] !== undefined || this.isReserved(urn)) {
      throw new ConflictError('This user already exists! Cannot create a new user.')
    }
    const info = {
      fullName: user.fullName,
      displayName: user.fullName,
      email: user.email,
      ...(user.title !== undefined ? { title: user.title } : {}),
      active: true,
    }
    const status = { status: 'ACTIVE', lastModified: { actor: SYSTEM_ACTOR, time: this.now() } }
    await this.records.write([
      upsertProposal(urn, CORP_USER_INFO_ASPECT, info),
      upsertProposal(urn, CORP_USER_STATUS_ASPECT, status),
      upsertProposal(urn, CORP_USER_CREDENTIALS_ASPECT, await this.credentialsFor(user.password)),
    ])
  }

  /**
   * Whether `password` is the native user's; false for an unknown or non-native user. A match
   * against DataHub's SHA-256 form, or a scrypt hash of a lower cost, is rehashed (reset token
   * fields kept).
   */
  async doesPasswordMatch(userUrn: string, password: string): Promise<boolean> {
    const urn = corpUserUrn(userUrn)
    const credentials = await this.credentials(urn)
    if (!credentials) return false
    const scrypt = isScryptHash(credentials.hashedPassword)
    const matches = scrypt
      ? await scryptVerify(password, credentials.hashedPassword)
      : this.matchesLegacy(credentials, password)
    if (matches && (!scrypt || needsRehash(credentials.hashedPassword, this.scryptParams))) {
      await this.records.write([
        upsertProposal(urn, CORP_USER_CREDENTIALS_ASPECT, {
          ...credentials,
          ...(await this.credentialsFor(password)),
        }),
      ])
    }
    return matches
  }

  /** DataHub's check: base64(SHA-256(decrypted salt ‖ password)); false when the salt does not decrypt. */
  private matchesLegacy(credentials: CorpUserCredentials, password: string): boolean {
    let salt: Buffer
    try {
      salt = Buffer.from(this.cipher.decrypt(credentials.salt), 'base64')
    } catch {
      return false
    }
    return SecretCipher.same(this.cipher.hashPassword(salt, password), credentials.hashedPassword)
  }

  /** A new password reset token for a native user, valid one day (it replaces any earlier one). */
  async generatePasswordResetToken(userUrn: string): Promise<string> {
    const urn = corpUserUrn(userUrn)
    const credentials = await this.credentials(urn)
    if (!credentials) throw new NotFoundError('User does not exist or is a non-native user!')
    const token = this.cipher.urlSafeToken(PASSWORD_RESET_TOKEN_LENGTH)
    await this.records.write([
      upsertProposal(urn, CORP_USER_CREDENTIALS_ASPECT, {
        ...credentials,
        passwordResetToken: this.cipher.encrypt(token),
        passwordResetTokenExpirationTimeMillis: this.now() + PASSWORD_RESET_TOKEN_TTL_MS,
      }),
    ])
    return token
  }

  /** Sets a new password with a current reset token. */
  async resetCredentials(userUrn: string, password: string, resetToken: string): Promise<void> {
    const urn = corpUserUrn(userUrn)
    if (password.length === 0) throw new InvalidInputError('password must not be empty')
    const credentials = await this.credentials(urn)
    if (!credentials) throw new NotFoundError('User does not exist!')
    const { passwordResetToken: stored, passwordResetTokenExpirationTimeMillis: expiry } = credentials
    if (stored === undefined || typeof expiry !== 'number') {
      throw new InvalidInputError('User has not generated a password reset token!')
    }
    if (!SecretCipher.same(this.cipher.decrypt(stored), resetToken)) {
      throw new InvalidInputError(
        'Invalid reset token. Please ask your administrator to send you an updated link!',
      )
    }
    if (this.now() > expiry) {
      throw new InvalidInputError(
        'Reset token has expired! Please ask your administrator to create a new one',
      )
    }
    // DataHub keeps the (now used) reset token fields; a new salt and hash replace the password.
    await this.records.write([
      upsertProposal(urn, CORP_USER_CREDENTIALS_ASPECT, {
        ...credentials,
        ...(await this.credentialsFor(password)),
      }),
    ])
  }

  /**
   * Why a user may not get a session token, as DataHub's `UserSessionEligibilityChecker` with
   * existence enforced: no key (HARD_DELETED), `status.removed`, a SUSPENDED `corpUserStatus`,
   * or a key with neither info nor status. Undefined when eligible. The root user always is.
   */
  async sessionDenial(userUrn: string): Promise<LoginDenialReason | undefined> {
    const urn = corpUserUrn(userUrn)
    if (urn === ROOT_ACTOR) return undefined
    const a = await this.records.aspects(urn, [
      CORP_USER_KEY_ASPECT,
      'status',
      CORP_USER_STATUS_ASPECT,
      CORP_USER_INFO_ASPECT,
    ])
    if (a[CORP_USER_KEY_ASPECT] === undefined) return 'HARD_DELETED'
    if ((a.status as { removed?: boolean } | undefined)?.removed === true) return 'SOFT_DELETED'
    if ((a[CORP_USER_STATUS_ASPECT] as { status?: string } | undefined)?.status === 'SUSPENDED')
      return 'SUSPENDED'
    if (a[CORP_USER_INFO_ASPECT] === undefined && a[CORP_USER_STATUS_ASPECT] === undefined)
      return 'NOT_PROVISIONED'
    return undefined
  }

  private async credentials(urn: string): Promise<CorpUserCredentials | undefined> {
    const value = (await this.records.aspects(urn, [CORP_USER_CREDENTIALS_ASPECT]))[
      CORP_USER_CREDENTIALS_ASPECT
    ] as Partial<CorpUserCredentials> | undefined
    if (!value || typeof value.salt !== 'string' || typeof value.hashedPassword !== 'string') return undefined
    return value as CorpUserCredentials
  }

  /** A scrypt hash of `password`, and its salt encrypted in DataHub's `salt` field. */
  private async credentialsFor(
    password: string,
  ): Promise<Pick<CorpUserCredentials, 'salt' | 'hashedPassword'>> {
    const { encoded, salt } = await scryptHash(password, this.scryptParams)
    return { salt: this.cipher.encrypt(salt.toString('base64')), hashedPassword: encoded }
  }
}

/** `urn:li:corpuser:<id>` for a user id or a corpuser URN; anything else is invalid input. */
export function corpUserUrn(userIdOrUrn: string): string {
  if (!userIdOrUrn.startsWith('urn:')) {
    if (userIdOrUrn.length === 0) throw new InvalidInputError('Invalid user id: empty')
    return `urn:li:corpuser:${userIdOrUrn}`
  }
  const urn = parseUrn(userIdOrUrn)
  if (urn.entityType !== 'corpuser') throw new InvalidInputError(`${userIdOrUrn} is not a corpuser urn`)
  return userIdOrUrn
}
