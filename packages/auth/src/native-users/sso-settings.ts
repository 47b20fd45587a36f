import type { CredentialRecords } from './credential-records.js'
import type { SecretCipher } from './secret-cipher.js'

export const GLOBAL_SETTINGS_URN = 'urn:li:globalSettings:0'
export const GLOBAL_SETTINGS_INFO_ASPECT = 'globalSettingsInfo'

/** Optional OIDC fields copied as they are when present (DataHub's `buildOidcSettingsResponse`). */
const OPTIONAL_OIDC_FIELDS = [
  'userNameClaim',
  'userNameClaimRegex',
  'scope',
  'clientAuthenticationMethod',
  'jitProvisioningEnabled',
  'preProvisioningRequired',
  'extractGroupsEnabled',
  'groupsClaim',
  'responseType',
  'responseMode',
  'useNonce',
  'readTimeout',
  'extractJwtAccessTokenClaims',
] as const

/**
 * What GMS's `/auth/getSsoSettings` answers datahub-frontend: the SSO settings stored in
 * `globalSettingsInfo.sso` of `urn:li:globalSettings:0`. This catalog configures no SSO of its
 * own, so there are none unless a DataHub backup or a client stored them.
 */
export class SsoSettingsReader {
  constructor(
    private readonly records: CredentialRecords,
    private readonly cipher: SecretCipher,
  ) {}

  /**
   * The response body, or undefined when no SSO settings are stored (DataHub: an empty 404):
   * `baseUrl`, then with OIDC settings `oidcEnabled`, `clientId`, the decrypted `clientSecret`,
   * `discoveryUri` and the optional fields present (`preferredJwsAlgorithm2` answered as
   * `preferredJwsAlgorithm`). Throws when the secret does not decrypt.
   */
  async response(): Promise<Record<string, unknown> | undefined> {
    const found = await this.records.aspects(GLOBAL_SETTINGS_URN, [GLOBAL_SETTINGS_INFO_ASPECT])
    const info = found[GLOBAL_SETTINGS_INFO_ASPECT] as { sso?: Record<string, unknown> } | undefined
    const sso = info?.sso
    if (!sso) return undefined
    const out: Record<string, unknown> = { baseUrl: sso.baseUrl }
    const oidc = sso.oidcSettings as Record<string, unknown> | undefined
    if (!oidc) return out
    out.oidcEnabled = oidc.enabled
    out.clientId = oidc.clientId
    out.clientSecret = this.cipher.decrypt(String(oidc.clientSecret))
    out.discoveryUri = oidc.discoveryUri
    for (const field of OPTIONAL_OIDC_FIELDS) if (oidc[field] !== undefined) out[field] = oidc[field]
    if (oidc.preferredJwsAlgorithm2 !== undefined) out.preferredJwsAlgorithm = oidc.preferredJwsAlgorithm2
    return out
  }
}
