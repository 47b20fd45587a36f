import { createHash } from 'node:crypto'
import t from 'tap'
import { get, gql, post, upsert } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { ALICE, aspect, auth, CLIENT, inviteToken, signUpBody } from '../helpers/frontend.js'

/**
 * The calls DataHub's frontend (`datahub-frontend`) makes to GMS to sign users in, replayed
 * against the catalog: invite token -> sign-up -> password check -> session token -> reset.
 */
t.test('the frontend sign-in flow, end to end', async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  const token = await inviteToken(b)
  t.match(token, /^[a-z]{32}$/, 'a 32-letter invite token, as DataHub makes them')
  const stored = await aspect(
    b,
    `urn:li:inviteToken:${createHash('sha256').update(token).digest('base64')}`,
    'inviteToken',
  )
  t.match(stored, { token: /^v2:/ }, 'stored under the SHA-256 of the token, encrypted')

  const signUp = await auth(b, 'signUp', signUpBody(token))
  t.same([signUp.status, signUp.body], [200, { isNativeUserCreated: true }])
  t.match(await aspect(b, ALICE, 'corpUserInfo'), {
    fullName: 'Alice Liddell',
    displayName: 'Alice Liddell',
    email: 'alice@example.com',
    title: 'Data Scientist',
    active: true,
  })
  t.match(await aspect(b, ALICE, 'corpUserStatus'), {
    status: 'ACTIVE',
    lastModified: { actor: 'urn:li:corpuser:__datahub_system' },
  })
  const credentials = (await aspect(b, ALICE, 'corpUserCredentials')) as {
    salt: string
    hashedPassword: string
  }
  const salt = Buffer.from(b.tokens?.cipher.decrypt(credentials.salt) ?? '', 'base64')
  t.equal(salt.length, 16, 'a 16-byte salt, encrypted')
  // Issue 13: new passwords are scrypt hashes carrying their parameters and the same salt.
  t.match(
    credentials.hashedPassword,
    `$scrypt$ln=15,r=8,p=1$${salt.toString('base64')}$`,
    'scrypt, with the parameters and the salt in the hash',
  )

  t.same((await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'correct horse' })).body, {
    doesPasswordMatch: true,
  })
  t.same((await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'wrong' })).body, {
    doesPasswordMatch: false,
    loginDenialReason: 'INVALID_CREDENTIALS',
  })

  const session = await auth(b, 'generateSessionTokenForUser', { userId: 'alice' })
  t.equal(session.status, 200)
  const accessToken = (session.body as { accessToken: string }).accessToken
  const claims = JSON.parse(Buffer.from(accessToken.split('.')[1] as string, 'base64url').toString())
  t.match(claims, { sub: ALICE, type: 'SESSION', actorType: 'USER', actorId: 'alice' })
  t.equal(claims.exp - claims.iat, 2_592_000, "DataHub's 30-day session")
  const read = await get(b.app, `/entitiesV2/${encodeURIComponent(ALICE)}`, accessToken)
  t.equal(read.status, 200, 'the session token works as a bearer')
  t.match(read.body, { urn: ALICE, aspects: { corpUserInfo: {} } })

  const reset = await gql(
    b.app,
    b.adminToken,
    'mutation { createNativeUserResetToken(input: {userUrn: "urn:li:corpuser:alice"}) { resetToken } }',
  )
  const resetToken = (reset.body as { data: { createNativeUserResetToken: { resetToken: string } } }).data
    .createNativeUserResetToken.resetToken
  t.match(resetToken, /^[a-z]{32}$/)
  t.match(await aspect(b, ALICE, 'corpUserCredentials'), {
    passwordResetToken: /^v2:/,
    passwordResetTokenExpirationTimeMillis: Number,
  })

  const wrongReset = await auth(b, 'resetNativeUserCredentials', {
    userUrn: ALICE,
    password: 'new pass',
    resetToken: 'x'.repeat(32),
  })
  t.same([wrongReset.status, wrongReset.raw], [500, ''], "a wrong reset token: DataHub's empty 500")
  t.same(
    (await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'correct horse' })).body,
    { doesPasswordMatch: true },
    'and nothing changed',
  )

  const done = await auth(b, 'resetNativeUserCredentials', {
    userUrn: ALICE,
    password: 'new pass',
    resetToken,
  })
  t.same([done.status, done.body], [200, { areNativeUserCredentialsReset: true }])
  t.same(
    (await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'correct horse' })).body
      .doesPasswordMatch,
    false,
    'old password refused',
  )
  t.same((await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'new pass' })).body, {
    doesPasswordMatch: true,
  })
})

t.test('only the system client may call /auth/*', async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  const token = await inviteToken(b)
  const body = signUpBody(token, { userUrn: 'urn:li:corpuser:mallory' })
  for (const [what, header, status] of [
    ['no credentials', null, 401],
    ['a wrong secret', `Basic ${CLIENT.id}:not-the-secret-at-all`, 401],
    ['another client id', `Basic someone:${CLIENT.secret}`, 401],
    ["the admin's bearer token", `Bearer ${b.adminToken}`, 401],
  ] as const) {
    for (const path of [
      'signUp',
      'verifyNativeUserCredentials',
      'generateSessionTokenForUser',
      'resetNativeUserCredentials',
    ]) {
      const answer = await auth(
        b,
        path,
        path === 'generateSessionTokenForUser' ? { userId: 'mallory' } : body,
        header,
      )
      t.equal(answer.status, status, `${path} with ${what}`)
    }
  }
  t.notOk(await b.store.exists('urn:li:corpuser:mallory', 'corpUserKey'), 'nothing stored')
  const b64 = `Basic ${Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64')}`
  t.equal(
    (await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'x' }, b64)).status,
    200,
    'RFC 7617 base64 form accepted too',
  )
})

t.test('without a configured system client secret, Basic credentials are refused', async (t) => {
  const b = await build(t, { auth: true })
  t.equal((await auth(b, 'generateSessionTokenForUser', { userId: 'alice' })).status, 401)
})

t.test("bad input: DataHub's statuses, empty bodies, nothing stored", async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  const token = await inviteToken(b)
  const bob = 'urn:li:corpuser:bob'
  const cases: [string, string, unknown, number][] = [
    ['unknown invite token', 'signUp', signUpBody('z'.repeat(32), { userUrn: bob }), 400],
    ['empty password', 'signUp', signUpBody(token, { userUrn: bob, password: '' }), 400],
    ['missing email', 'signUp', { ...signUpBody(token, { userUrn: bob }), email: undefined }, 400],
    ['the system user', 'signUp', signUpBody(token, { userUrn: 'urn:li:corpuser:__datahub_system' }), 400],
    ['not a corpuser urn', 'signUp', signUpBody(token, { userUrn: 'urn:li:corpGroup:bob' }), 400],
    ['missing userId', 'generateSessionTokenForUser', {}, 400],
    ['missing password', 'verifyNativeUserCredentials', { userUrn: bob }, 400],
    ['missing reset token', 'resetNativeUserCredentials', { userUrn: bob, password: 'p' }, 400],
    [
      'reset of an unknown user',
      'resetNativeUserCredentials',
      { userUrn: bob, password: 'p', resetToken: 'r' },
      500,
    ],
  ]
  for (const [what, path, body, status] of cases) {
    const answer = await auth(b, path, body)
    t.same([answer.status, answer.raw], [status, ''], what)
  }
  t.notOk(await b.store.exists(bob, 'corpUserKey'), 'bob was not created')
  t.same(
    (await auth(b, 'verifyNativeUserCredentials', { userUrn: bob, password: 'p' })).body,
    {
      doesPasswordMatch: false,
      loginDenialReason: 'INVALID_CREDENTIALS',
    },
    'an unknown user: no match, as DataHub',
  )
  const denied = await auth(b, 'generateSessionTokenForUser', { userId: 'bob' })
  t.same(
    [denied.status, denied.body],
    [403, { loginDenialReason: 'HARD_DELETED' }],
    'no session for a user that does not exist',
  )

  t.equal((await auth(b, 'signUp', signUpBody(token))).status, 200)
  const again = await auth(b, 'signUp', signUpBody(token, { password: 'other' }))
  t.same([again.status, again.raw], [500, ''], "an existing user: DataHub's empty 500")
  t.same(
    (await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'correct horse' })).body,
    { doesPasswordMatch: true },
    'its password unchanged',
  )

  t.equal(
    (
      await post(
        b.app,
        '/aspects?action=ingestProposal',
        b.adminToken,
        upsert(ALICE, 'corpUserStatus', { status: 'SUSPENDED', lastModified: { actor: ALICE, time: 1 } }),
      )
    ).status,
    200,
  )
  const suspended = await auth(b, 'generateSessionTokenForUser', { userId: 'alice' })
  t.same([suspended.status, suspended.body], [403, { loginDenialReason: 'SUSPENDED' }])
})
