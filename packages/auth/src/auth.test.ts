import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InvalidInputError, ROOT_ACTOR, UnauthorizedError, UnavailableError } from '@catalog/core'
import pino from 'pino'
import t from 'tap'
import { bootstrapAuth } from './bootstrap.js'
import { loadOrCreateSecret } from './secret.js'
import { type BootstrapProposal, tokenDeleteProposal } from './token-records.js'
import { TokenService } from './token-service.js'
import { parseTtl } from './ttl.js'

const SECRET = 'a-test-secret-that-is-long-enough-0123456789'
const silent = pino({ level: 'silent' })

function tempDir(t: { teardown: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-auth-unit-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('parseTtl', async (t) => {
  t.equal(parseTtl('30d'), 30 * 86_400_000)
  t.equal(parseTtl('12h'), 12 * 3_600_000)
  t.equal(parseTtl('90m'), 90 * 60_000)
  t.equal(parseTtl('1y'), 365 * 86_400_000)
  t.equal(parseTtl('never'), null)
  t.throws(() => parseTtl('30 days'), InvalidInputError)
  t.throws(() => parseTtl('0d'), InvalidInputError)
})

t.test('loadOrCreateSecret', async (t) => {
  const dir = tempDir(t)
  const first = loadOrCreateSecret(dir)
  t.ok(first.created)
  t.ok(first.secret.length >= 32)
  t.equal(statSync(join(dir, 'token.secret')).mode & 0o777, 0o600)
  const again = loadOrCreateSecret(dir)
  t.same({ secret: again.secret, created: again.created }, { secret: first.secret, created: false })
  t.same(loadOrCreateSecret(dir, SECRET), { secret: SECRET, created: false }, 'a configured secret wins')
})

t.test('issue and verify', async (t) => {
  let now = 1_700_000_000_000
  const tokens = new TokenService(SECRET, async () => true, { now: () => now })
  const issued = tokens.issue({
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: ROOT_ACTOR,
    ttlMs: 60_000,
    name: 'x',
  })
  t.match(await tokens.verify(issued.accessToken), {
    sub: 'urn:li:corpuser:alice',
    jti: issued.id,
    exp: 1_700_000_060,
    type: 'PERSONAL',
    actorId: 'alice',
  })
  t.same(issued.info, {
    name: 'x',
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: ROOT_ACTOR,
    createdAt: now,
    expiresAt: now + 60_000,
  })
  const [h, p, s] = issued.accessToken.split('.') as [string, string, string]
  const forged = Buffer.from(
    JSON.stringify({ ...(await tokens.verify(issued.accessToken)), sub: ROOT_ACTOR }),
  ).toString('base64url')
  await t.rejects(
    tokens.verify(`${h}.${forged}.${s}`),
    UnauthorizedError,
    'a changed payload breaks the signature',
  )
  await t.rejects(tokens.verify(`${h}.${p}`), UnauthorizedError)
  now += 60_000
  await t.rejects(tokens.verify(issued.accessToken), /expired at 2023-11-14T22:14:20.000Z/)
  const forever = tokens.issue({
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: ROOT_ACTOR,
    ttlMs: null,
    name: 'y',
  })
  t.notOk((await tokens.verify(forever.accessToken)).exp, 'no expiry')
  t.throws(
    () => tokens.issue({ actorUrn: 'alice', ownerUrn: ROOT_ACTOR, ttlMs: 1, name: 'z' }),
    InvalidInputError,
  )
  t.throws(
    () => tokens.issue({ actorUrn: ROOT_ACTOR, ownerUrn: ROOT_ACTOR, ttlMs: 1, name: ' ' }),
    InvalidInputError,
  )
})

t.test('a verified token is remembered, but its time window is checked on every use', async (t) => {
  let now = 1_700_000_000_000
  const tokens = new TokenService(SECRET, async () => true, { now: () => now })
  const { accessToken } = tokens.issue({
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: ROOT_ACTOR,
    ttlMs: 60_000,
    name: 'w',
  })
  const first = await tokens.verify(accessToken)
  t.equal(await tokens.verify(accessToken), first, 'the second use is answered from memory')
  t.ok(Object.isFrozen(first), 'the remembered claims cannot be changed by a caller')
  now -= 5000
  await t.rejects(tokens.verify(accessToken), UnauthorizedError, 'before its not-before time it is refused')
  now += 5000 + 60_000
  await t.rejects(tokens.verify(accessToken), /expired at/, 'and after its expiry')
})

t.test('authenticate caches the revocation check for a few seconds', async (t) => {
  let now = 1_700_000_000_000
  let checks = 0
  let active = true
  const tokens = new TokenService(
    SECRET,
    async () => {
      checks++
      return active
    },
    { now: () => now, cacheTtlMs: 5000 },
  )
  const issued = tokens.issue({
    actorUrn: 'urn:li:corpuser:bob',
    ownerUrn: ROOT_ACTOR,
    ttlMs: 3_600_000,
    name: 'b',
  })
  const header = `Bearer ${issued.accessToken}`
  t.match(await tokens.authenticate(header), { actor: 'urn:li:corpuser:bob', tokenId: issued.id })
  await tokens.authenticate(header)
  t.equal(checks, 1, 'one check within the cache lifetime')
  active = false
  now += 5001
  await t.rejects(tokens.authenticate(header), /revoked/, 'seen once the cache entry expires')
  active = true
  tokens.forget(issued.id)
  await tokens.authenticate(header)
  t.equal(checks, 3, 'forget() drops the cached state')
  await t.rejects(tokens.authenticate(undefined), UnauthorizedError)
  await t.rejects(tokens.authenticate('Token abc'), /must be 'Bearer <token>'/)
  const failing = new TokenService(
    SECRET,
    async () => {
      throw new Error('db down')
    },
    { now: () => now },
  )
  await t.rejects(failing.authenticate(header), UnavailableError, 'a failing store is a 503, not a 401')
})

t.test('bootstrapAuth writes the admin token once and replaces it when revoked', async (t) => {
  const dir = tempDir(t)
  const stored = new Set<string>()
  const policies = new Set<string>()
  const ingest = async (proposals: readonly BootstrapProposal[]) => {
    for (const p of proposals) {
      if (p.entityType !== 'dataHubAccessToken') {
        policies.add(p.entityUrn)
        continue
      }
      const id = p.entityUrn.slice('urn:li:dataHubAccessToken:'.length)
      if (p.changeType === 'DELETE') stored.delete(id)
      else stored.add(id)
    }
  }
  const options = {
    dataDir: dir,
    enabled: true,
    isActive: async (id: string) => stored.has(id),
    ingest,
    log: silent,
  }
  const first = await bootstrapAuth(options)
  t.ok(policies.has('urn:li:dataHubPolicy:0'), 'the default policies are stored')
  t.ok(policies.has('urn:li:dataHubRole:Admin'), 'and the default roles')
  const file = join(dir, 'admin.token')
  t.equal(first.adminTokenFile, file)
  t.equal(statSync(file).mode & 0o777, 0o600)
  const token = readFileSync(file, 'utf8').trim()
  t.match(await first.tokens.authenticate(`Bearer ${token}`), { actor: ROOT_ACTOR })
  await bootstrapAuth(options)
  t.equal(readFileSync(file, 'utf8').trim(), token, 'a second start reuses it')
  await ingest([tokenDeleteProposal((await first.tokens.verify(token)).jti)])
  await bootstrapAuth(options)
  t.not(readFileSync(file, 'utf8').trim(), token, 'a revoked admin token is replaced at the next start')
  const off = await bootstrapAuth({ ...options, dataDir: tempDir(t), enabled: false })
  t.equal(off.adminTokenFile, undefined, 'no admin token with auth off')
})
