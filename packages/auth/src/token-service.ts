import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import { InvalidInputError, parseUrn, SYSTEM_ACTOR, UnauthorizedError, UnavailableError } from '@catalog/core'
import { signJwt, TOKEN_ISSUER, type TokenClaims, verifyJwt } from './jwt.js'
import { SecretCipher } from './native-users/secret-cipher.js'

/** The `dataHubAccessTokenInfo` aspect: the stored record of a minted token. */
export interface AccessTokenInfo {
  readonly name: string
  readonly actorUrn: string
  readonly ownerUrn: string
  readonly createdAt: number
  readonly expiresAt?: number
  readonly description?: string
}

/** What to mint. */
export interface IssueRequest {
  /** The actor the token acts as. */
  readonly actorUrn: string
  /** Who asked for it. */
  readonly ownerUrn: string
  /** Lifetime in ms; null for no expiry. */
  readonly ttlMs: number | null
  readonly name: string
  readonly description?: string
  /** DataHub's token type: PERSONAL (the default), or SERVICE_ACCOUNT for a service account's. */
  readonly type?: 'PERSONAL' | 'SERVICE_ACCOUNT'
}

/** A freshly signed token and the record to store for it. */
export interface IssuedToken {
  readonly accessToken: string
  readonly id: string
  readonly info: AccessTokenInfo
}

/** The authenticated caller. */
export interface Principal {
  readonly actor: string
  readonly tokenId: string
  readonly claims: TokenClaims
}

/**
 * Answers whether the token entity `tokenId` still exists (it is deleted on revocation).
 * `token` is the raw bearer token, for checks that must present it to another service.
 * Throws an {@link UnavailableError} when it cannot tell.
 */
export type ActiveCheck = (tokenId: string, token: string) => Promise<boolean>

export interface TokenServiceOptions {
  /** How long a token's active/revoked state is cached, ms (default 5000). */
  readonly cacheTtlMs?: number
  /** Most cached token states (default 10000). */
  readonly cacheSize?: number
  readonly now?: () => number
  /**
   * DataHub's system client (`DATAHUB_SYSTEM_CLIENT_ID` / `_SECRET`): with it, the header
   * `Authorization: Basic <id>:<secret>` authenticates as `urn:li:corpuser:<id>`, as
   * DataHub's frontend calls GMS. Absent: Basic credentials are refused.
   */
  readonly systemClient?: SystemClient
  /**
   * The key native-user credentials and invite tokens are encrypted with (DataHub's
   * `SECRET_SERVICE_ENCRYPTION_KEY`); default: the signing secret.
   */
  readonly encryptionKey?: string
}

/** The system client's id and secret. */
export interface SystemClient {
  readonly id: string
  readonly secret: string
}

const BEARER = /^Bearer[ \t]+([^\s]+)[ \t]*$/i

const BASIC = /^Basic[ \t]+([^\s]+)[ \t]*$/i

/** Token type of {@link TokenService.sessionToken} tokens (DataHub's `SESSION`). */
export const SESSION_TOKEN_TYPE = 'SESSION'
/** DataHub's default session token lifetime (`SESSION_TOKEN_DURATION_MS`): 30 days. */
export const SESSION_TOKEN_TTL_MS = 2_592_000_000
/** Token id of a request authenticated with the system client's credentials. */
export const SYSTEM_CLIENT_TOKEN_ID = 'system-client'

/** Token type of {@link TokenService.serviceToken} tokens. */
export const SERVICE_TOKEN_TYPE = 'SERVICE'
/** Lifetime of a service token: 10 minutes. */
export const SERVICE_TOKEN_TTL_MS = 10 * 60_000

/**
 * Signs and verifies access tokens: HS256 JWTs carrying the actor URN, a token id and an
 * expiry. A token is valid while its signature and expiry check out AND its
 * `dataHubAccessToken` entity exists; that last answer is cached for a few seconds, so a
 * revocation is seen at once by the process that revoked and within the cache lifetime by
 * every other process.
 */
export class TokenService {
  private readonly cache = new Map<string, { active: boolean; until: number }>()
  /** Tokens whose signature, form and issuer checked out: only their time window is checked again. */
  private readonly verified = new Map<string, Readonly<TokenClaims>>()
  /** Principals of `Authorization` headers that authenticated, for {@link authenticateCached}. */
  private readonly principals = new Map<string, Principal>()
  private readonly service = new Map<string, { token: string; renewAt: number }>()
  private readonly cacheTtlMs: number
  private readonly cacheSize: number
  private readonly now: () => number
  private readonly systemClient: SystemClient | undefined
  /** Encrypts and hashes native users' credentials and invite tokens, as DataHub's GMS does. */
  readonly cipher: SecretCipher

  constructor(
    private readonly secret: string,
    private readonly isActive: ActiveCheck,
    options: TokenServiceOptions = {},
  ) {
    this.cacheTtlMs = options.cacheTtlMs ?? 5000
    this.cacheSize = options.cacheSize ?? 10_000
    this.now = options.now ?? Date.now
    this.systemClient = options.systemClient
    this.cipher = new SecretCipher(options.encryptionKey ?? secret)
  }

  /** `urn:li:corpuser:<system client id>` when a system client is configured. */
  get systemClientActor(): string | undefined {
    return this.systemClient ? `urn:li:corpuser:${this.systemClient.id}` : undefined
  }

  /** Signs a new token; the caller stores `info` as the token entity before handing it out. */
  issue(request: IssueRequest): IssuedToken {
    const actor = parseUrn(request.actorUrn)
    parseUrn(request.ownerUrn)
    if (request.name.trim().length === 0) throw new InvalidInputError('A token needs a non-empty name')
    const id = randomUUID()
    const createdAt = this.now()
    const expiresAt = request.ttlMs === null ? undefined : createdAt + request.ttlMs
    const claims: TokenClaims = {
      sub: request.actorUrn,
      jti: id,
      iat: Math.floor(createdAt / 1000),
      nbf: Math.floor(createdAt / 1000),
      ...(expiresAt === undefined ? {} : { exp: Math.floor(expiresAt / 1000) }),
      iss: TOKEN_ISSUER,
      type: request.type ?? 'PERSONAL',
      actorType: actor.entityType === 'corpuser' ? 'USER' : actor.entityType.toUpperCase(),
      actorId: actor.parts.join(','),
      version: '2',
    }
    const info: AccessTokenInfo = {
      name: request.name,
      actorUrn: request.actorUrn,
      ownerUrn: request.ownerUrn,
      createdAt,
      ...(expiresAt === undefined ? {} : { expiresAt }),
      ...(request.description === undefined ? {} : { description: request.description }),
    }
    return { accessToken: signJwt(claims, this.secret), id, info }
  }

  /** Checks form, algorithm, signature, issuer, expiry and not-before (not revocation); returns the claims. */
  async verify(token: string): Promise<TokenClaims> {
    const nowSeconds = Math.floor(this.now() / 1000)
    const known = this.verified.get(token)
    if (known && withinWindow(known, nowSeconds)) return known
    // Outside its window (or new): the full check, which also words the expiry error.
    const claims = Object.freeze(await verifyJwt(token, this.secret, nowSeconds))
    if (this.verified.size >= this.cacheSize) this.verified.clear()
    this.verified.set(token, claims)
    return claims
  }

  /**
   * Authenticates an `Authorization` header value: `Bearer <token>` with a valid, unexpired,
   * unrevoked token. Every failure is an {@link UnauthorizedError}.
   */
  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (authorization === undefined || authorization.length === 0) {
      throw new UnauthorizedError(
        "Unauthorized: this request needs an 'Authorization: Bearer <token>' header",
      )
    }
    const basic = BASIC.exec(authorization)
    // Without a configured system client, a Basic header is just not a bearer header.
    if (basic && this.systemClient)
      return this.authenticateSystemClient(this.systemClient, basic[1] as string)
    const match = BEARER.exec(authorization)
    if (!match) {
      throw new UnauthorizedError("Unauthorized: the Authorization header must be 'Bearer <token>'")
    }
    const token = match[1] as string
    const claims = await this.verify(token)
    // A service token has no entity: only holders of the secret can sign one, and it is short-lived.
    // A session token (DataHub's stateless SESSION type) has no entity either.
    const stateless = claims.type === SERVICE_TOKEN_TYPE || claims.type === SESSION_TOKEN_TYPE
    if (!stateless && !(await this.active(claims.jti, token))) {
      throw new UnauthorizedError('Unauthorized: the bearer token has been revoked')
    }
    const principal: Principal = { actor: claims.sub, tokenId: claims.jti, claims }
    if (this.principals.size >= this.cacheSize) this.principals.clear()
    this.principals.set(authorization, principal)
    return principal
  }

  /**
   * {@link authenticate} answered from what is already known, without waiting: the principal
   * of a bearer header that authenticated before, while its token is inside its time window
   * and its active state is cached and not past its lifetime (nor dropped by {@link forget}).
   * Undefined otherwise: call {@link authenticate}, which checks everything again.
   */
  authenticateCached(authorization: string | undefined): Principal | undefined {
    if (authorization === undefined) return undefined
    const principal = this.principals.get(authorization)
    if (!principal) return undefined
    const now = this.now()
    if (!withinWindow(principal.claims, Math.floor(now / 1000))) return undefined
    const type = principal.claims.type
    if (type === SERVICE_TOKEN_TYPE || type === SESSION_TOKEN_TYPE) return principal
    const state = this.cache.get(principal.tokenId)
    return state?.active && state.until > now ? principal : undefined
  }

  /**
   * A short-lived token for calls between the catalog's own services (e.g. a search service
   * reading the metadata service's change log). It is valid without a stored token entity,
   * for {@link SERVICE_TOKEN_TTL_MS}; a fresh one is signed when the current one is past half
   * its life. Only processes holding the signing secret can make one.
   */
  serviceToken(actor: string = SYSTEM_ACTOR): string {
    const now = this.now()
    const current = this.service.get(actor)
    if (current && current.renewAt > now) return current.token
    const id = randomUUID()
    const token = signJwt(
      {
        sub: actor,
        jti: id,
        iat: Math.floor(now / 1000),
        nbf: Math.floor(now / 1000),
        exp: Math.floor((now + SERVICE_TOKEN_TTL_MS) / 1000),
        iss: TOKEN_ISSUER,
        type: SERVICE_TOKEN_TYPE,
        actorType: 'USER',
        actorId: parseUrn(actor).parts.join(','),
        version: '2',
      },
      this.secret,
    )
    this.service.set(actor, { token, renewAt: now + SERVICE_TOKEN_TTL_MS / 2 })
    return token
  }

  /**
   * A SESSION token for a signed-in user, as GMS's `/auth/generateSessionTokenForUser` mints
   * for DataHub's frontend: stateless (no token entity), valid for `ttlMs`.
   */
  sessionToken(userUrn: string, ttlMs: number = SESSION_TOKEN_TTL_MS): string {
    const actor = parseUrn(userUrn)
    const now = this.now()
    return signJwt(
      {
        sub: userUrn,
        jti: randomUUID(),
        iat: Math.floor(now / 1000),
        nbf: Math.floor(now / 1000),
        exp: Math.floor((now + ttlMs) / 1000),
        iss: TOKEN_ISSUER,
        type: SESSION_TOKEN_TYPE,
        actorType: 'USER',
        actorId: actor.parts.join(','),
        version: '2',
      },
      this.secret,
    )
  }

  /** Forgets the cached state of a token (after revoking it here). */
  forget(tokenId: string): void {
    this.cache.delete(tokenId)
  }

  /** `Basic <id>:<secret>` (DataHub's form), or the base64 of `<id>:<secret>` (RFC 7617). */
  private authenticateSystemClient(client: SystemClient, credentials: string): Principal {
    const raw = credentials.includes(':') ? credentials : Buffer.from(credentials, 'base64').toString('utf8')
    const expected = `${client.id}:${client.secret}`
    const a = createHash('sha256').update(raw).digest()
    const b = createHash('sha256').update(expected).digest()
    if (!timingSafeEqual(a, b)) throw new UnauthorizedError('Unauthorized: invalid system client credentials')
    const actor = `urn:li:corpuser:${client.id}`
    const iat = Math.floor(this.now() / 1000)
    const claims: TokenClaims = {
      sub: actor,
      jti: SYSTEM_CLIENT_TOKEN_ID,
      iat,
      iss: TOKEN_ISSUER,
      type: 'SYSTEM',
      actorType: 'USER',
      actorId: client.id,
      version: '2',
    }
    return { actor, tokenId: SYSTEM_CLIENT_TOKEN_ID, claims }
  }

  private async active(tokenId: string, token: string): Promise<boolean> {
    const now = this.now()
    const cached = this.cache.get(tokenId)
    if (cached && cached.until > now) return cached.active
    let active: boolean
    try {
      active = await this.isActive(tokenId, token)
    } catch (err) {
      if (err instanceof UnavailableError) throw err
      throw new UnavailableError('cannot check the bearer token against the token store', { cause: err })
    }
    if (this.cache.size >= this.cacheSize) this.cache.clear()
    this.cache.set(tokenId, { active, until: now + this.cacheTtlMs })
    return active
  }
}

/** The time checks of {@link verifyJwt}: valid from `nbf` (inclusive) until `exp` (exclusive). */
function withinWindow(claims: TokenClaims, nowSeconds: number): boolean {
  if (typeof claims.exp === 'number' && nowSeconds >= claims.exp) return false
  if (typeof claims.nbf === 'number' && nowSeconds < claims.nbf) return false
  return true
}
