import { createHmac } from 'node:crypto'
import { UnauthorizedError } from '@catalog/core'
import { errors, jwtVerify } from 'jose'

/** Issuer written into every token, and the only one accepted. */
export const TOKEN_ISSUER = 'datahub-compatible-catalog'
/** The only signing algorithm signed and accepted. */
export const TOKEN_ALGORITHM = 'HS256'

/** The claims of a catalog access token (a JWT signed with HS256). */
export interface TokenClaims {
  /** The actor URN the token acts as (`urn:li:corpuser:alice`). */
  readonly sub: string
  /** Token id: the id of the `dataHubAccessToken` entity that keeps the token valid. */
  readonly jti: string
  /** Issued at, seconds since epoch. */
  readonly iat: number
  /** Not valid before, seconds since epoch (tokens signed here carry `iat`). */
  readonly nbf?: number
  /** Expiry, seconds since epoch; absent for a token minted with no expiry. */
  readonly exp?: number
  readonly iss: string
  /** DataHub's token type (`PERSONAL`). */
  readonly type: string
  /** DataHub's actor type and id (`USER`, `alice`). */
  readonly actorType: string
  readonly actorId: string
  readonly version: string
}

const HEADER = Buffer.from(JSON.stringify({ alg: TOKEN_ALGORITHM, typ: 'JWT' })).toString('base64url')
const MALFORMED = 'Unauthorized: the bearer token is malformed (not a signed JWT)'

/**
 * Signs `claims` as a compact JWS (HS256, `typ: JWT`). Signing stays synchronous because
 * minting callers (GraphQL, CLI, service tokens) are synchronous; every token is verified by
 * {@link verifyJwt} through `jose`, and the round trip is unit-tested.
 */
export function signJwt(claims: TokenClaims, secret: string): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`
}

/**
 * Checks a token with `jose`: the algorithm pinned to HS256, the signature, `iss`, `exp`
 * and `nbf`; the signature must be in its one canonical base64url form (a re-encoding of
 * the same bytes is refused). Returns its claims. Every failure is an
 * {@link UnauthorizedError} naming what is wrong. Revocation is not checked here.
 */
export async function verifyJwt(token: string, secret: string, nowSeconds: number): Promise<TokenClaims> {
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((p) => p.length === 0 || !/^[A-Za-z0-9_-]+$/.test(p))) {
    throw new UnauthorizedError(MALFORMED)
  }
  let payload: Record<string, unknown>
  try {
    const result = await jwtVerify(token, new TextEncoder().encode(secret), {
      algorithms: [TOKEN_ALGORITHM],
      issuer: TOKEN_ISSUER,
      currentDate: new Date(nowSeconds * 1000),
      requiredClaims: ['sub', 'jti', 'iat'],
    })
    payload = result.payload as Record<string, unknown>
  } catch (err) {
    throw toUnauthorized(err)
  }
  // jose decodes base64url leniently: of the encodings of the verified signature bytes only
  // the canonical one is accepted, so a token has exactly one spelling.
  const signature = parts[2] as string
  if (Buffer.from(signature, 'base64url').toString('base64url') !== signature) {
    throw new UnauthorizedError('Unauthorized: the bearer token signature is not canonically encoded')
  }
  if (
    typeof payload.sub !== 'string' ||
    !payload.sub.startsWith('urn:li:') ||
    typeof payload.jti !== 'string'
  ) {
    throw new UnauthorizedError('Unauthorized: the bearer token has no actor or token id')
  }
  return payload as unknown as TokenClaims
}

function toUnauthorized(err: unknown): UnauthorizedError {
  if (err instanceof errors.JWTExpired) {
    const exp = err.payload.exp
    const when = typeof exp === 'number' ? new Date(exp * 1000).toISOString() : 'unknown'
    return new UnauthorizedError(`Unauthorized: the bearer token expired at ${when}`, { cause: err })
  }
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') {
      return new UnauthorizedError('Unauthorized: the bearer token is not valid yet', { cause: err })
    }
    if (err.claim === 'iss') {
      return new UnauthorizedError('Unauthorized: the bearer token was issued by someone else', {
        cause: err,
      })
    }
    return new UnauthorizedError(`Unauthorized: the bearer token has an invalid '${err.claim}' claim`, {
      cause: err,
    })
  }
  if (err instanceof errors.JOSEAlgNotAllowed) {
    return new UnauthorizedError('Unauthorized: the bearer token is not signed with HS256', { cause: err })
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) {
    return new UnauthorizedError('Unauthorized: the bearer token signature is invalid', { cause: err })
  }
  return new UnauthorizedError(MALFORMED, { cause: err })
}
