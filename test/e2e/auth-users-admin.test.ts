import { GRAPHQL_UNAUTHORIZED_MESSAGE } from '@catalog/auth'
import t, { type Test } from 'tap'
import { adminWrite, aspectOf, assignRole, get, gql, tokenFor } from '../helpers/actors.js'
import { type Built, build } from '../helpers/build.js'
import { ALICE, auth, CLIENT, inviteToken, signUpBody } from '../helpers/frontend.js'

/** User and group administration over GraphQL, as DataHub's resolvers do it, and `/auth/getSsoSettings`. */

const BOB = 'urn:li:corpuser:bob'
const RITA = 'urn:li:corpuser:rita'
const GROUP = 'urn:li:corpGroup:analysts'

async function setUp(t: Test): Promise<{ b: Built; reader: string }> {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  await adminWrite(b, BOB, 'corpUserInfo', { active: true, fullName: 'Bob', email: 'bob@example.com' })
  await assignRole(b, RITA, 'Reader')
  return { b, reader: await tokenFor(b, RITA) }
}

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)'
const DESCRIBE = `mutation { updateDescription(input: {resourceUrn: "${DATASET}", description: "x"}) }`

async function listedUsers(b: Built): Promise<string[]> {
  const answer = await gql(
    b.app,
    b.adminToken,
    'query { listUsers(input: {start: 0, count: 100}) { users { urn } } }',
  )
  return answer.body.data.listUsers.users.map((u: { urn: string }) => u.urn)
}

t.test('removeUser: a Reader is refused and nothing changes; an Admin hard-deletes the user', async (t) => {
  const { b, reader } = await setUp(t)
  await gql(b.app, b.adminToken, `mutation { createGroup(input: {id: "analysts", name: "Analysts"}) }`)
  await gql(
    b.app,
    b.adminToken,
    `mutation { addGroupMembers(input: {groupUrn: "${GROUP}", userUrns: ["${BOB}"]}) }`,
  )
  t.ok((await listedUsers(b)).includes(BOB), 'bob is listed before')

  const refused = await gql(b.app, reader, `mutation { removeUser(urn: "${BOB}") }`)
  t.equal(refused.status, 200)
  t.match(refused.body, {
    data: { removeUser: null },
    errors: [{ message: GRAPHQL_UNAUTHORIZED_MESSAGE, extensions: { code: 403 } }],
  })
  t.ok(await aspectOf(b, BOB, 'corpUserInfo'), 'bob is still there')

  const removed = await gql(b.app, b.adminToken, `mutation { removeUser(urn: "${BOB}") }`)
  t.same(removed.body, { data: { removeUser: true } })
  t.equal(await aspectOf(b, BOB, 'corpUserInfo'), undefined, 'every aspect is gone')
  t.equal(await aspectOf(b, BOB, 'nativeGroupMembership'), undefined)
  t.notOk((await listedUsers(b)).includes(BOB), 'gone from listUsers')
  const members = await get(
    b.app,
    `/relationships?urn=${encodeURIComponent(GROUP)}&direction=INCOMING&types=List(IsMemberOfNativeGroup)`,
    b.adminToken,
  )
  t.same(members.body.relationships, [], 'the membership edge went with the user')

  const notUser = await gql(b.app, b.adminToken, `mutation { removeUser(urn: "${GROUP}") }`)
  t.match(notUser.body, { errors: [{ extensions: { code: 400 } }] }, 'a group urn is not a user')
  t.ok(await aspectOf(b, GROUP, 'corpGroupInfo'), 'and the group is left alone')
})

const MINT = (actor: string) =>
  `mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "${actor}", duration: ONE_HOUR, name: "t"}) { accessToken } }`

t.test('removeUser revokes the tokens the user acts with or minted; other tokens keep working', async (t) => {
  const { b, reader } = await setUp(t)
  await adminWrite(b, DATASET, 'datasetProperties', { name: 'orders', customProperties: {} })
  await assignRole(b, BOB, 'Admin')
  const bobs = await tokenFor(b, BOB)
  const minted = await gql(b.app, bobs, MINT(RITA))
  const ritaByBob = minted.body?.data?.createAccessToken?.accessToken as string
  t.type(ritaByBob, 'string', 'bob mints a token for rita')
  const read = (token: string) => get(b.app, `/entitiesV2/${encodeURIComponent(DATASET)}`, token)
  // Each token authenticates (and its state is cached) before the removal.
  t.equal((await read(bobs)).status, 200)
  t.equal((await read(ritaByBob)).status, 200)
  t.equal((await read(reader)).status, 200)

  t.same((await gql(b.app, b.adminToken, `mutation { removeUser(urn: "${BOB}") }`)).body, {
    data: { removeUser: true },
  })
  for (const [name, token] of [
    ['acting as bob', bobs],
    ['minted by bob', ritaByBob],
  ] as const) {
    const refused = await read(token)
    t.equal(refused.status, 401, `a token ${name} is refused at once`)
    t.match(refused.body, { status: 401, message: 'Unauthorized: the bearer token has been revoked' })
    t.equal((await gql(b.app, token, 'query { me { corpUser { urn } } }')).status, 401, 'GraphQL too')
  }
  t.equal((await read(reader)).status, 200, "rita's own token (minted by the admin) still works")
  const listed = await gql(
    b.app,
    b.adminToken,
    `query { listAccessTokens(input: {start: 0, count: 100, filters: [{field: "ownerUrn", values: ["${BOB}"]}]}) { total } }`,
  )
  t.match(listed.body, { data: { listAccessTokens: { total: 0 } } }, 'no token of bob is left')
})

t.test("removeGroup: the group and its members' membership of it go", async (t) => {
  const { b, reader } = await setUp(t)
  await gql(b.app, b.adminToken, `mutation { createGroup(input: {id: "analysts", name: "Analysts"}) }`)
  await gql(
    b.app,
    b.adminToken,
    `mutation { addGroupMembers(input: {groupUrn: "${GROUP}", userUrns: ["${BOB}"]}) }`,
  )
  t.same(await aspectOf(b, BOB, 'nativeGroupMembership'), { nativeGroups: [GROUP] })

  const refused = await gql(b.app, reader, `mutation { removeGroup(urn: "${GROUP}") }`)
  t.match(refused.body, { errors: [{ message: GRAPHQL_UNAUTHORIZED_MESSAGE, extensions: { code: 403 } }] })
  t.ok(await aspectOf(b, GROUP, 'corpGroupInfo'), 'the group is still there')

  const removed = await gql(b.app, b.adminToken, `mutation { removeGroup(urn: "${GROUP}") }`)
  t.same(removed.body, { data: { removeGroup: true } })
  t.equal(await aspectOf(b, GROUP, 'corpGroupInfo'), undefined, 'the group is gone')
  t.same(await aspectOf(b, BOB, 'nativeGroupMembership'), { nativeGroups: [] }, "bob's membership is gone")
  t.ok(await aspectOf(b, BOB, 'corpUserInfo'), 'bob stays')
  const groups = await gql(
    b.app,
    b.adminToken,
    'query { listGroups(input: {start: 0, count: 100}) { groups { urn } } }',
  )
  t.same(groups.body.data.listGroups.groups, [], 'gone from listGroups')
})

t.test(
  'updateUserStatus SUSPENDED: sign-in denied, tokens refused; ACTIVE again lets the user back',
  async (t) => {
    const { b, reader } = await setUp(t)
    t.equal((await auth(b, 'signUp', signUpBody(await inviteToken(b)))).status, 200)
    const alice = await tokenFor(b, ALICE)
    t.equal(
      (await get(b.app, `/entitiesV2/${encodeURIComponent(BOB)}`, alice)).status,
      200,
      'alice reads before',
    )

    const refused = await gql(
      b.app,
      reader,
      `mutation { updateUserStatus(urn: "${ALICE}", status: SUSPENDED) }`,
    )
    t.match(refused.body, { errors: [{ message: GRAPHQL_UNAUTHORIZED_MESSAGE, extensions: { code: 403 } }] })
    t.match(await aspectOf(b, ALICE, 'corpUserStatus'), { status: 'ACTIVE' }, 'unchanged')

    const suspended = await gql(
      b.app,
      b.adminToken,
      `mutation { updateUserStatus(urn: "${ALICE}", status: SUSPENDED) }`,
    )
    t.same(suspended.body, { data: { updateUserStatus: ALICE } })
    t.match(await aspectOf(b, ALICE, 'corpUserStatus'), {
      status: 'SUSPENDED',
      lastModified: { actor: 'urn:li:corpuser:datahub' },
    })
    const verify = await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'correct horse' })
    t.same(verify.body, { doesPasswordMatch: true, loginDenialReason: 'SUSPENDED' })
    const session = await auth(b, 'generateSessionTokenForUser', { userId: 'alice' })
    t.equal(session.status, 403)
    t.same(session.body, { loginDenialReason: 'SUSPENDED' })
    const withToken = await get(b.app, `/entitiesV2/${encodeURIComponent(BOB)}`, alice)
    t.equal(withToken.status, 403, "a suspended user's token is refused")
    t.match(withToken.body, { status: 403, message: 'Actor is not active' })
    // GraphQL too (split mode: the gateway asks the metadata service, invalidating from its change log).
    const gqlAsAlice = await gql(b.app, alice, 'query { me { corpUser { urn } } }')
    t.equal(gqlAsAlice.status, 403, "a suspended user's GraphQL call is refused")

    await gql(b.app, b.adminToken, `mutation { updateUserStatus(urn: "${ALICE}", status: ACTIVE) }`)
    t.equal((await get(b.app, `/entitiesV2/${encodeURIComponent(BOB)}`, alice)).status, 200, 'active again')
    t.equal((await gql(b.app, alice, 'query { me { corpUser { urn } } }')).status, 200, 'GraphQL too')
    const again = await auth(b, 'verifyNativeUserCredentials', { userUrn: ALICE, password: 'correct horse' })
    t.same(again.body, { doesPasswordMatch: true })
  },
)

t.test(
  'acceptRole: a valid invite token grants its role to the caller; an unknown one changes nothing',
  async (t) => {
    const { b } = await setUp(t)
    t.equal((await auth(b, 'signUp', signUpBody(await inviteToken(b)))).status, 200)
    const alice = await tokenFor(b, ALICE)
    const editorToken = await inviteToken(b, 'urn:li:dataHubRole:Editor')

    await adminWrite(b, DATASET, 'datasetProperties', { name: 'orders', customProperties: {} })
    t.match(
      (await gql(b.app, alice, DESCRIBE)).body,
      { errors: [{ message: GRAPHQL_UNAUTHORIZED_MESSAGE }] },
      'no role: no edits',
    )
    const bad = await gql(b.app, alice, 'mutation { acceptRole(input: {inviteToken: "notatokenatall"}) }')
    t.match(bad.body, { data: { acceptRole: null }, errors: [{ extensions: { code: 400 } }] })
    t.equal(await aspectOf(b, ALICE, 'roleMembership'), undefined, 'no role given')

    const ok = await gql(b.app, alice, `mutation { acceptRole(input: {inviteToken: "${editorToken}"}) }`)
    t.same(ok.body, { data: { acceptRole: true } })
    t.same(await aspectOf(b, ALICE, 'roleMembership'), { roles: ['urn:li:dataHubRole:Editor'] })
    // As an Editor, alice may now edit descriptions (before, without a role, she may not).
    t.same(
      (await gql(b.app, alice, DESCRIBE)).body,
      { data: { updateDescription: true } },
      'the role applies',
    )
  },
)

t.test('/auth/getSsoSettings: an empty 404 without SSO settings, the stored ones otherwise', async (t) => {
  const b = await build(t, { auth: true, systemClient: CLIENT })
  const none = await auth(b, 'getSsoSettings', {})
  t.equal(none.status, 404)
  t.equal(none.raw, '')
  t.equal((await auth(b, 'getSsoSettings', {}, null)).status, 401, 'unauthenticated: 401')

  const secret = b.tokens?.cipher.encrypt('the-client-secret') as string
  await adminWrite(b, 'urn:li:globalSettings:0', 'globalSettingsInfo', {
    sso: {
      baseUrl: 'https://catalog.example.com',
      oidcSettings: {
        enabled: true,
        clientId: 'catalog',
        clientSecret: secret,
        discoveryUri: 'https://idp.example.com/.well-known/openid-configuration',
        scope: 'openid email',
        preferredJwsAlgorithm2: 'RS256',
      },
    },
  })
  const some = await auth(b, 'getSsoSettings', {})
  t.equal(some.status, 200)
  t.same(some.body, {
    baseUrl: 'https://catalog.example.com',
    oidcEnabled: true,
    clientId: 'catalog',
    clientSecret: 'the-client-secret',
    discoveryUri: 'https://idp.example.com/.well-known/openid-configuration',
    scope: 'openid email',
    preferredJwsAlgorithm: 'RS256',
  })
})
