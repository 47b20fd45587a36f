import { createHmac, timingSafeEqual } from 'node:crypto'
import { UnauthorizedError } from '@catalog/core'

/** Issuer written into every token. */
export const TOKEN_ISSUER = 'datahub-compatible-catalog'

/** The claims of a catalog access token (a JWT signed with HS256). */
export interface TokenClaims {
  /** The actor URN the token acts as (`urn:li:corpuser:alice`). */
  readonly sub: string
  /** Token id: the id of the `dataHubAccessToken` entity that keeps the token valid. */
  readonly jti: string
  /** Issued at, seconds since epoch. */
  readonly iat: number
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

const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url')
}

function hmac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest()
}

/** Signs `claims` as a compact JWT (HS256). */
export function signJwt(claims: TokenClaims, secret: string): string {
  const body = `${HEADER}.${base64url(JSON.stringify(claims))}`
  return `${body}.${hmac(secret, body).toString('base64url')}`
}

function parsePart(part: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
  } catch {
    throw new UnauthorizedError('Unauthorized: the bearer token is malformed (not a signed JWT)')
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UnauthorizedError('Unauthorized: the bearer token is malformed (not a signed JWT)')
  }
  return parsed as Record<string, unknown>
}

/**
 * Checks a token's form, algorithm, signature and expiry; returns its claims. Every failure
 * is an {@link UnauthorizedError} naming what is wrong. Revocation is not checked here.
 */
export function verifyJwt(token: string, secret: string, nowSeconds: number): TokenClaims {
  const parts = token.split('.')
  if (parts.length !== 3 || parts.some((p) => p.length === 0 || !/^[A-Za-z0-9_-]+$/.test(p))) {
    throw new UnauthorizedError('Unauthorized: the bearer token is malformed (not a signed JWT)')
  }
  const [header, payload, signature] = parts as [string, string, string]
  if (parsePart(header).alg !== 'HS256') {
    throw new UnauthorizedError('Unauthorized: the bearer token is not signed with HS256')
  }
  const expected = hmac(secret, `${header}.${payload}`)
  const given = Buffer.from(signature, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new UnauthorizedError('Unauthorized: the bearer token signature is invalid')
  }
  const claims = parsePart(payload)
  if (typeof claims.sub !== 'string' || !claims.sub.startsWith('urn:li:') || typeof claims.jti !== 'string') {
    throw new UnauthorizedError('Unauthorized: the bearer token has no actor or token id')
  }
  if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp <= nowSeconds)) {
    const when = typeof claims.exp === 'number' ? new Date(claims.exp * 1000).toISOString() : 'unknown'
    throw new UnauthorizedError(`Unauthorized: the bearer token expired at ${when}`)
  }
  return claims as unknown as TokenClaims
}
