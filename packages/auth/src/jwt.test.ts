import { createHmac } from 'node:crypto'
import { UnauthorizedError } from '@catalog/core'
import { jwtVerify, SignJWT } from 'jose'
import t from 'tap'
import { signJwt, TOKEN_ISSUER, type TokenClaims, verifyJwt } from './jwt.js'

const SECRET = 'a-test-secret-that-is-long-enough-0123456789'
const NOW = 1_700_000_000
const key = new TextEncoder().encode(SECRET)

const claims: TokenClaims = {
  sub: 'urn:li:corpuser:alice',
  jti: 'id-1',
  iat: NOW,
  nbf: NOW,
  exp: NOW + 60,
  iss: TOKEN_ISSUER,
  type: 'PERSONAL',
  actorType: 'USER',
  actorId: 'alice',
  version: '2',
}

/** A token with any header and claims, HMAC-signed with `secret`. */
function handMade(header: object, payload: object, secret = SECRET, hash = 'sha256'): string {
  const body = `${Buffer.from(JSON.stringify(header)).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`
  return `${body}.${createHmac(hash, secret).update(body).digest('base64url')}`
}

t.test('tokens signed here verify with jose, and jose-signed tokens verify here', async (t) => {
  const token = signJwt(claims, SECRET)
  const { payload, protectedHeader } = await jwtVerify(token, key, {
    algorithms: ['HS256'],
    currentDate: new Date(NOW * 1000),
  })
  t.same(protectedHeader, { alg: 'HS256', typ: 'JWT' })
  t.same(payload, claims)
  t.same(await verifyJwt(token, SECRET, NOW), claims)
  const byJose = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key)
  t.same(await verifyJwt(byJose, SECRET, NOW), claims)
})

t.test('the algorithm is pinned to HS256', async (t) => {
  await t.rejects(verifyJwt(handMade({ alg: 'HS512', typ: 'JWT' }, claims, SECRET, 'sha512'), SECRET, NOW), {
    message: 'Unauthorized: the bearer token is not signed with HS256',
  })
  const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`
  await t.rejects(verifyJwt(none, SECRET, NOW), UnauthorizedError, 'alg none (empty signature) is malformed')
})

t.test('a token issued by someone else is refused, even with the right signature', async (t) => {
  const foreign = handMade({ alg: 'HS256', typ: 'JWT' }, { ...claims, iss: 'someone-else' })
  await t.rejects(verifyJwt(foreign, SECRET, NOW), {
    message: 'Unauthorized: the bearer token was issued by someone else',
  })
  const { iss: _iss, ...noIssuer } = claims
  await t.rejects(verifyJwt(handMade({ alg: 'HS256' }, noIssuer), SECRET, NOW), UnauthorizedError)
})

t.test('nbf and exp are checked', async (t) => {
  const later = handMade({ alg: 'HS256', typ: 'JWT' }, { ...claims, nbf: NOW + 30 })
  await t.rejects(verifyJwt(later, SECRET, NOW), {
    message: 'Unauthorized: the bearer token is not valid yet',
  })
  t.ok(await verifyJwt(later, SECRET, NOW + 30), 'valid from nbf on')
  await t.rejects(verifyJwt(signJwt(claims, SECRET), SECRET, NOW + 60), {
    message: 'Unauthorized: the bearer token expired at 2023-11-14T22:14:20.000Z',
  })
})

t.test('only the canonical encoding of the signature is accepted', async (t) => {
  const token = signJwt(claims, SECRET)
  const [h, p, s] = token.split('.') as [string, string, string]
  // 32 bytes are 43 base64url characters; the last one carries 2 unused bits. Setting them
  // gives a different string that decodes to the same bytes.
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const last = alphabet.indexOf(s.at(-1) as string)
  const twin = `${s.slice(0, -1)}${alphabet[last ^ 1]}`
  t.not(twin, s)
  t.same(Buffer.from(twin, 'base64url'), Buffer.from(s, 'base64url'), 'same signature bytes')
  await t.rejects(verifyJwt(`${h}.${p}.${twin}`, SECRET, NOW), {
    message: 'Unauthorized: the bearer token signature is not canonically encoded',
  })
  await t.rejects(verifyJwt(`${h}.${p}.${s}=`, SECRET, NOW), UnauthorizedError, 'padding is refused')
  await t.rejects(verifyJwt(signJwt(claims, 'another-secret-that-is-long-enough-987654'), SECRET, NOW), {
    message: 'Unauthorized: the bearer token signature is invalid',
  })
})
