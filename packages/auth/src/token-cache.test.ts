import { ROOT_ACTOR } from '@catalog/core'
import t from 'tap'
import { TokenService } from './token-service.js'

const SECRET = 'a-test-secret-that-is-long-enough-0123456789'

t.test('authenticateCached: a known header answers at once, until revoked, expired or stale', async (t) => {
  let now = 1_700_000_000_000
  let active = true
  const tokens = new TokenService(SECRET, async () => active, { now: () => now, cacheTtlMs: 5000 })
  const issued = tokens.issue({
    actorUrn: 'urn:li:corpuser:bob',
    ownerUrn: ROOT_ACTOR,
    ttlMs: 60_000,
    name: 'b',
  })
  const header = `Bearer ${issued.accessToken}`
  t.equal(tokens.authenticateCached(header), undefined, 'unknown before a full check')
  await tokens.authenticate(header)
  t.match(tokens.authenticateCached(header), { actor: 'urn:li:corpuser:bob', tokenId: issued.id })
  t.equal(tokens.authenticateCached(`Bearer ${issued.accessToken}x`), undefined, 'another header is not it')

  tokens.forget(issued.id)
  t.equal(tokens.authenticateCached(header), undefined, 'revoked here: forgotten at once')
  active = false
  await t.rejects(tokens.authenticate(header), /revoked/, 'and the full check refuses it')
  t.equal(tokens.authenticateCached(header), undefined, 'a refused token is never answered from memory')

  active = true
  now += 5001
  await tokens.authenticate(header)
  t.ok(tokens.authenticateCached(header), 'active again after a full check')
  now += 5001
  t.equal(tokens.authenticateCached(header), undefined, 'the active state is as old as its cache lifetime')
  await tokens.authenticate(header)
  now += 60_000
  t.equal(tokens.authenticateCached(header), undefined, 'expired: only the full check words the error')
  await t.rejects(tokens.authenticate(header), /expired/)
})

t.test('authenticateCached: service and session tokens need no active state', async (t) => {
  let now = 1_700_000_000_000
  const tokens = new TokenService(SECRET, async () => false, { now: () => now })
  const service = `Bearer ${tokens.serviceToken('urn:li:corpuser:svc')}`
  const session = `Bearer ${tokens.sessionToken('urn:li:corpuser:ann', 60_000)}`
  for (const header of [service, session]) await tokens.authenticate(header)
  t.match(tokens.authenticateCached(service), { actor: 'urn:li:corpuser:svc', claims: { type: 'SERVICE' } })
  t.match(tokens.authenticateCached(session), { actor: 'urn:li:corpuser:ann', claims: { type: 'SESSION' } })
  now += 60_001
  t.equal(tokens.authenticateCached(session), undefined, 'past its expiry')
})
