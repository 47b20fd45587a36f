import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import t from 'tap'
import { type Answer, gql, post, upsert } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { ALICE, aspect, auth, CLIENT, inviteToken, signUpBody } from '../helpers/frontend.js'

/** Native users' credentials: DataHub's storage formats, GraphQL invite and reset tokens, and hidden reads. */
t.test('credentials written by DataHub verify here (its v2 and legacy encryption)', async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  // The key: what this catalog encrypts with by default, its token signing secret.
  const key = readFileSync(`${b.dir}/token.secret`, 'utf8').trim()
  const salt = randomBytes(16)
  const hashed = createHash('sha256')
    .update(Buffer.concat([salt, Buffer.from('s3cret')]))
    .digest('base64')
  // DataHub's legacy format: AES-128-ECB, key = first 16 bytes of SHA-1(secret).
  const legacy = createCipheriv('aes-128-ecb', createHash('sha1').update(key).digest().subarray(0, 16), null)
  const legacySalt = Buffer.concat([legacy.update(salt.toString('base64')), legacy.final()]).toString(
    'base64',
  )
  // DataHub's v2: AES-256-GCM, key = HMAC-SHA256(SHA-256(secret), "DataHub-AES-GCM-Key").
  const gcmKey = createHmac('sha256', createHash('sha256').update(key).digest())
    .update('DataHub-AES-GCM-Key')
    .digest()
  const iv = randomBytes(12)
  const gcm = createCipheriv('aes-256-gcm', gcmKey, iv)
  const body = Buffer.concat([gcm.update(salt.toString('base64')), gcm.final(), gcm.getAuthTag()])
  const v2Salt = `v2:${Buffer.concat([iv, body]).toString('base64')}`
  for (const [user, encryptedSalt] of [
    ['carol', legacySalt],
    ['dave', v2Salt],
  ] as const) {
    const urn = `urn:li:corpuser:${user}`
    await post(
      b.app,
      '/aspects?action=ingestProposal',
      b.adminToken,
      upsert(urn, 'corpUserInfo', { active: true, fullName: user }),
    )
    const write = await post(
      b.app,
      '/aspects?action=ingestProposal',
      b.adminToken,
      upsert(urn, 'corpUserCredentials', { salt: encryptedSalt, hashedPassword: hashed }),
    )
    t.equal(write.status, 200)
    t.same(
      (await auth(b, 'verifyNativeUserCredentials', { userUrn: urn, password: 's3cret' })).body,
      { doesPasswordMatch: true },
      `${user}: right password`,
    )
    t.same(
      (await auth(b, 'verifyNativeUserCredentials', { userUrn: urn, password: 'S3cret' })).body
        .doesPasswordMatch,
      false,
      `${user}: wrong password`,
    )
  }
})

t.test('GraphQL invite and reset tokens need their privileges', async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  const first = await gql(b.app, b.adminToken, 'query { getInviteToken(input: {}) { inviteToken } }')
  const second = await gql(b.app, b.adminToken, 'query { getInviteToken(input: {}) { inviteToken } }')
  const tokenOf = (a: Answer) =>
    (a.body as { data: { getInviteToken: { inviteToken: string } } }).data.getInviteToken.inviteToken
  t.match(tokenOf(first), /^[a-z]{32}$/)
  t.equal(tokenOf(second), tokenOf(first), 'getInviteToken answers the stored token')
  const withRole = await inviteToken(b, 'urn:li:dataHubRole:Reader')
  t.not(withRole, tokenOf(first))

  const session = (await auth(b, 'generateSessionTokenForUser', { userId: 'datahub' })).body as {
    accessToken: string
  }
  t.ok(session.accessToken, 'the root user signs in (it always exists)')
  // A user without MANAGE_POLICIES / MANAGE_USER_CREDENTIALS: sign alice up, then ask as her.
  t.equal((await auth(b, 'signUp', signUpBody(tokenOf(first)))).status, 200)
  const alice = (
    (await auth(b, 'generateSessionTokenForUser', { userId: 'alice' })).body as { accessToken: string }
  ).accessToken
  const refused = await gql(b.app, alice, 'query { getInviteToken(input: {}) { inviteToken } }')
  t.match(refused.body, { errors: [{ extensions: { code: 403 } }] })
  const reset = await gql(
    b.app,
    alice,
    'mutation { createNativeUserResetToken(input: {userUrn: "urn:li:corpuser:alice"}) { resetToken } }',
  )
  t.match(reset.body, { errors: [{ extensions: { code: 403 } }] })
  t.notOk(
    ((await aspect(b, ALICE, 'corpUserCredentials')) as { passwordResetToken?: string }).passwordResetToken,
    'no reset token stored',
  )
})

t.test('corpUserCredentials is never read back without MANAGE_USER_CREDENTIALS', async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  t.equal((await auth(b, 'signUp', signUpBody(await inviteToken(b)))).status, 200)
  const alice = (
    (await auth(b, 'generateSessionTokenForUser', { userId: 'alice' })).body as { accessToken: string }
  ).accessToken
  const urn = encodeURIComponent(ALICE)
  const reads = [
    `/entitiesV2/${urn}`,
    `/entities/${urn}`,
    `/openapi/v3/entity/corpuser/${urn}`,
    `/openapi/v3/entity/corpuser?count=10`,
  ]
  for (const url of reads) {
    const asAlice = await b.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${alice}` } })
    t.equal(asAlice.statusCode, 200, `${url} as alice`)
    t.match(asAlice.body, /corpUserInfo|CorpUserInfo/, `${url}: the other aspects are there`)
    t.notMatch(asAlice.body, /orpUserCredentials|hashedPassword/, `${url}: no credentials`)
  }
  const v2 = await b.app.inject({
    method: 'GET',
    url: reads[0] as string,
    headers: { authorization: `Bearer ${b.adminToken}` },
  })
  t.match(v2.body, /hashedPassword/, 'the admin (MANAGE_USER_CREDENTIALS) still reads them')
  for (const url of [
    `/aspects/${urn}?aspect=corpUserCredentials&version=0`,
    `/openapi/v3/entity/corpuser/${urn}/corpUserCredentials`,
    `/entitiesV2/${urn}?aspects=List(corpUserCredentials)`,
  ]) {
    const named = await b.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${alice}` } })
    t.equal(named.statusCode, 403, `${url}: 403`)
    t.notMatch(named.body, /hashedPassword/)
  }
})

t.test('new and reset passwords are stored with scrypt, in a valid corpUserCredentials', async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  t.equal((await auth(b, 'signUp', signUpBody(await inviteToken(b)))).status, 200)
  const stored = (await aspect(b, ALICE, 'corpUserCredentials')) as { salt: string; hashedPassword: string }
  t.match(stored.hashedPassword, /^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/)
  t.match(stored.salt, /^v2:/, 'the salt field holds the salt, encrypted as DataHub keeps it')
  t.same(Object.keys(stored).sort(), ['hashedPassword', 'salt'], "only DataHub's fields")
  const verify = (password: string) => auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password })
  t.same((await verify('correct horse')).body, { doesPasswordMatch: true })
  t.same((await verify('correct horsE')).body, {
    doesPasswordMatch: false,
    loginDenialReason: 'INVALID_CREDENTIALS',
  })
  t.same(await aspect(b, ALICE, 'corpUserCredentials'), stored, 'a current scrypt hash is not rewritten')

  const reset = await gql(
    b.app,
    b.adminToken,
    `mutation { createNativeUserResetToken(input: {userUrn: "${ALICE}"}) { resetToken } }`,
  )
  const resetToken = (reset.body as { data: { createNativeUserResetToken: { resetToken: string } } }).data
    .createNativeUserResetToken.resetToken
  const done = await auth(b, 'resetNativeUserCredentials', {
    userUrn: ALICE,
    password: 'new one',
    resetToken,
  })
  t.equal(done.status, 200)
  const after = (await aspect(b, ALICE, 'corpUserCredentials')) as { hashedPassword: string }
  t.match(after.hashedPassword, /^\$scrypt\$ln=15,r=8,p=1\$/)
  t.not(after.hashedPassword, stored.hashedPassword, 'a new salt and hash')
  t.same((await verify('new one')).body, { doesPasswordMatch: true })
  t.same((await verify('correct horse')).body.doesPasswordMatch, false)
  // The aspect as this catalog writes it passes DataHub's validation when written back over REST.
  const roundTrip = await post(
    b.app,
    '/aspects?action=ingestProposal',
    b.adminToken,
    upsert(ALICE, 'corpUserCredentials', await aspect(b, ALICE, 'corpUserCredentials')),
  )
  t.equal(roundTrip.status, 200)
  t.same((await verify('new one')).body, { doesPasswordMatch: true }, 'and still verifies')
})

t.test(
  "DataHub's SHA-256 credentials are rehashed to scrypt on the first successful verification",
  async (t) => {
    const b = await build(t, { auth: true, systemClient: CLIENT })
    const key = readFileSync(`${b.dir}/token.secret`, 'utf8').trim()
    const salt = randomBytes(16)
    const hashed = createHash('sha256')
      .update(Buffer.concat([salt, Buffer.from('s3cret')]))
      .digest('base64')
    const legacy = createCipheriv(
      'aes-128-ecb',
      createHash('sha1').update(key).digest().subarray(0, 16),
      null,
    )
    const encryptedSalt = Buffer.concat([legacy.update(salt.toString('base64')), legacy.final()]).toString(
      'base64',
    )
    const urn = 'urn:li:corpuser:erin'
    await post(
      b.app,
      '/aspects?action=ingestProposal',
      b.adminToken,
      upsert(urn, 'corpUserInfo', { active: true }),
    )
    const original = {
      salt: encryptedSalt,
      hashedPassword: hashed,
      passwordResetToken: 'kept',
      passwordResetTokenExpirationTimeMillis: 1,
    }
    await post(
      b.app,
      '/aspects?action=ingestProposal',
      b.adminToken,
      upsert(urn, 'corpUserCredentials', original),
    )
    const verify = (password: string) => auth(b, 'verifyNativeUserCredentials', { userUrn: urn, password })

    t.same((await verify('wrong')).body.doesPasswordMatch, false)
    t.same(await aspect(b, urn, 'corpUserCredentials'), original, 'a failed verification rewrites nothing')

    t.same((await verify('s3cret')).body, { doesPasswordMatch: true })
    const rehashed = (await aspect(b, urn, 'corpUserCredentials')) as Record<string, unknown>
    t.match(rehashed.hashedPassword, /^\$scrypt\$ln=15,r=8,p=1\$/, 'rehashed with scrypt')
    t.not(rehashed.salt, encryptedSalt, 'with a new salt')
    t.match(
      rehashed,
      { passwordResetToken: 'kept', passwordResetTokenExpirationTimeMillis: 1 },
      'reset fields kept',
    )
    t.same((await verify('s3cret')).body, { doesPasswordMatch: true }, 'the scrypt hash verifies')
    t.same((await verify('S3cret')).body.doesPasswordMatch, false)
  },
)
