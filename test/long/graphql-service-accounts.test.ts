import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * Service accounts over GraphQL, as DataHub serves them: create, list, get, the default view,
 * tokens minted for them, delete (which revokes those tokens), and `searchUsers`, which leaves
 * them out.
 */

const CREATE = `mutation($input: CreateServiceAccountInput!) { createServiceAccount(input: $input) {
  urn type name displayName description createdBy createdAt updatedAt } }`
const LIST = `query($input: ListServiceAccountsInput!) { listServiceAccounts(input: $input) {
  start count total serviceAccounts { urn name displayName description defaultView { urn name } } } }`
const GET = `query($urn: String!) { getServiceAccount(urn: $urn) { urn name displayName description } }`
const DELETE = 'mutation($urn: String!) { deleteServiceAccount(urn: $urn) }'
const DEFAULT_VIEW = `mutation($input: UpdateServiceAccountDefaultViewInput!) {
  updateServiceAccountDefaultView(input: $input) }`
const TOKEN = `mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken metadata { urn } } }`
const SEARCH_USERS = `query($input: SearchAcrossEntitiesInput!) { searchUsers(input: $input) {
  total searchResults { entity { urn type } } } }`

t.test('create, list, read, set a default view, delete', async (t) => {
  const { app } = await build(t)
  const before = Date.now()
  const made = await gql(app, CREATE, { input: { displayName: 'CI loader', description: 'Loads nightly' } })
  t.notOk(made.errors, 'no errors')
  const account = made.data.createServiceAccount
  t.match(account.urn, /^urn:li:corpuser:service_[0-9a-f-]{36}$/, 'a service_<uuid> user')
  t.equal(account.name, account.urn.slice('urn:li:corpuser:'.length), 'create answers the whole username')
  t.same(
    { ...account, urn: undefined, name: undefined, createdAt: undefined },
    {
      urn: undefined,
      name: undefined,
      createdAt: undefined,
      type: 'CORP_USER',
      displayName: 'CI loader',
      description: 'Loads nightly',
      createdBy: 'urn:li:corpuser:datahub',
      updatedAt: null,
    },
  )
  t.ok(account.createdAt >= before, 'created now')
  const second = (await gql(app, CREATE, { input: {} })).data.createServiceAccount
  t.equal(second.displayName, null, 'no display name given, none answered')
  const id = second.urn.slice('urn:li:corpuser:'.length)
  const read2 = await gql(app, GET, { urn: second.urn })
  t.same(
    read2.data.getServiceAccount,
    {
      urn: second.urn,
      name: id.slice('service_'.length),
      displayName: id,
      description: null,
    },
    'stored with the username as display name; get strips the prefix',
  )

  await ingestAspect(app, 'corpuser', 'urn:li:corpuser:alice', 'corpUserInfo', {
    active: true,
    displayName: 'Alice',
  })
  const list = await gql(app, LIST, { input: {} })
  t.notOk(list.errors)
  t.equal(list.data.listServiceAccounts.total, 2, 'the two accounts, not alice')
  t.same(
    list.data.listServiceAccounts.serviceAccounts.map((a: { urn: string }) => a.urn).sort(),
    [account.urn, second.urn].sort(),
  )
  t.equal(list.data.listServiceAccounts.count, 10, 'DataHub answers the page size')
  const found = await gql(app, LIST, { input: { query: 'nightly' } })
  t.same(
    found.data.listServiceAccounts.serviceAccounts.map((a: { urn: string }) => a.urn),
    [account.urn],
  )

  const notOne = await gql(app, GET, { urn: 'urn:li:corpuser:alice' })
  t.equal(notOne.errors?.[0]?.message, 'The specified URN is not a service account: urn:li:corpuser:alice')
  t.same((await gql(app, GET, { urn: 'urn:li:corpuser:service_none' })).data, { getServiceAccount: null })

  // A global view as the account's default; personal views are refused.
  const view = await gql(
    app,
    `mutation { createView(input: {viewType: GLOBAL, name: "Prod", definition: {entityTypes: [DATASET], filter: {operator: AND, filters: []}}}) { urn } }`,
  )
  const viewUrn = view.data.createView.urn
  const personal = (
    await gql(
      app,
      `mutation { createView(input: {viewType: PERSONAL, name: "Mine", definition: {entityTypes: [], filter: {operator: AND, filters: []}}}) { urn } }`,
    )
  ).data.createView.urn
  t.same((await gql(app, DEFAULT_VIEW, { input: { urn: account.urn, defaultView: viewUrn } })).data, {
    updateServiceAccountDefaultView: true,
  })
  const withView = await gql(app, LIST, { input: { query: 'nightly' } })
  t.same(withView.data.listServiceAccounts.serviceAccounts[0].defaultView, { urn: viewUrn, name: 'Prod' })
  const refused = await gql(app, DEFAULT_VIEW, { input: { urn: account.urn, defaultView: personal } })
  t.equal(
    refused.errors?.[0]?.message,
    'Only public (global) views can be set as the default view for a service account. Personal views are not supported.',
  )
  const missingView = await gql(app, DEFAULT_VIEW, {
    input: { urn: account.urn, defaultView: 'urn:li:dataHubView:none' },
  })
  t.equal(missingView.errors?.[0]?.message, 'View urn:li:dataHubView:none does not exist.')
  const toUser = await gql(app, DEFAULT_VIEW, {
    input: { urn: 'urn:li:corpuser:alice', defaultView: viewUrn },
  })
  t.equal(toUser.errors?.[0]?.message, 'URN urn:li:corpuser:alice is not a service account.')
  await gql(app, DEFAULT_VIEW, { input: { urn: account.urn } })
  const cleared = await gql(app, LIST, { input: { query: 'nightly' } })
  t.equal(cleared.data.listServiceAccounts.serviceAccounts[0].defaultView, null, 'cleared')

  const deleteUser = await gql(app, DELETE, { urn: 'urn:li:corpuser:alice' })
  t.equal(
    deleteUser.errors?.[0]?.message,
    'The specified URN is not a service account: urn:li:corpuser:alice',
  )
  const deleteNone = await gql(app, DELETE, { urn: 'urn:li:corpuser:service_none' })
  t.equal(deleteNone.errors?.[0]?.message, 'Service account not found: urn:li:corpuser:service_none')
  t.same((await gql(app, DELETE, { urn: second.urn })).data, { deleteServiceAccount: true })
  t.same((await gql(app, GET, { urn: second.urn })).data, { getServiceAccount: null }, 'gone')
  t.equal((await gql(app, LIST, { input: {} })).data.listServiceAccounts.total, 1)
})

t.test(
  'only MANAGE_SERVICE_ACCOUNTS (Admins) manages them; their tokens work until the account is deleted',
  async (t) => {
    const built = await build(t, { auth: true })
    const made = await gqlAs(built.app, built.adminToken, CREATE, { input: { displayName: 'Loader' } })
    const account = made.body.data.createServiceAccount.urn as string

    const editor = 'urn:li:corpuser:editor-role'
    await assignRole(built, editor, 'Editor')
    const editorToken = await tokenFor(built, editor)
    const refusals: [string, string, Record<string, unknown>][] = [
      ['create', CREATE, { input: {} }],
      ['list', LIST, { input: {} }],
      ['view', GET, { urn: account }],
      ['delete', DELETE, { urn: account }],
      ['manage', DEFAULT_VIEW, { input: { urn: account } }],
    ]
    for (const [verb, query, variables] of refusals) {
      const answer = await gqlAs(built.app, editorToken, query, variables)
      t.equal(
        answer.body.errors?.[0]?.message,
        `Unauthorized to ${verb} service accounts. Please contact your DataHub administrator.`,
        `${verb} refused without the privilege`,
      )
    }
    const editorMint = await gqlAs(built.app, editorToken, TOKEN, {
      input: { type: 'SERVICE_ACCOUNT', actorUrn: account, duration: 'ONE_HOUR', name: 'ci' },
    })
    t.equal(editorMint.body.errors?.[0]?.extensions?.code, 403, 'nor mints their tokens')

    // An Admin holds MANAGE_SERVICE_ACCOUNTS, as in DataHub: it lists them and mints their tokens.
    const admin = 'urn:li:corpuser:admin-role'
    await assignRole(built, admin, 'Admin')
    const adminToken = await tokenFor(built, admin)
    const listed = await gqlAs(built.app, adminToken, LIST, { input: {} })
    t.equal(listed.body.data?.listServiceAccounts?.total, 1, 'an Admin lists them')
    const notAccount = await gqlAs(built.app, adminToken, TOKEN, {
      input: { type: 'SERVICE_ACCOUNT', actorUrn: admin, duration: 'ONE_HOUR', name: 'ci' },
    })
    t.equal(notAccount.body.errors?.[0]?.message, `The specified URN is not a service account: ${admin}`)
    const minted = await gqlAs(built.app, adminToken, TOKEN, {
      input: { type: 'SERVICE_ACCOUNT', actorUrn: account, duration: 'ONE_HOUR', name: 'ci' },
    })
    t.notOk(minted.body.errors, 'minted')
    const token = minted.body.data.createAccessToken.accessToken as string
    const stored = (await aspectOf(
      built,
      minted.body.data.createAccessToken.metadata.urn,
      'dataHubAccessTokenInfo',
    )) as Record<string, unknown>
    t.match(stored, { actorUrn: account, ownerUrn: admin, name: 'ci' }, 'owned by its creator')
    await adminWrite(built, account, 'roleMembership', { roles: ['urn:li:dataHubRole:Reader'] })
    const me = await gqlAs(built.app, token, '{ me { corpUser { urn } } }')
    t.equal(me.body.data?.me?.corpUser?.urn, account, 'the token acts as the account')

    t.same((await gqlAs(built.app, built.adminToken, DELETE, { urn: account })).body.data, {
      deleteServiceAccount: true,
    })
    const revoked = await gqlAs(built.app, token, '{ me { corpUser { urn } } }')
    t.equal(revoked.status, 401, "the deleted account's token no longer authenticates")
  },
)

t.test('searchUsers: users only, never service accounts, for user managers', async (t) => {
  const built = await build(t, { auth: true })
  for (const name of ['alice', 'albert']) {
    await adminWrite(built, `urn:li:corpuser:${name}`, 'corpUserInfo', { active: true, displayName: name })
  }
  await adminWrite(built, 'urn:li:dataset:(urn:li:dataPlatform:hive,al,PROD)', 'datasetProperties', {
    name: 'al',
  })
  await gqlAs(built.app, built.adminToken, CREATE, { input: { displayName: 'albot' } })
  const all = await gqlAs(built.app, built.adminToken, SEARCH_USERS, {
    input: { query: '*', types: ['DATASET'] },
  })
  t.notOk(all.body.errors)
  const urns = all.body.data.searchUsers.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn)
  t.ok(urns.includes('urn:li:corpuser:alice') && urns.includes('urn:li:corpuser:albert'), 'the users')
  t.notOk(
    urns.some((u: string) => u.includes('service_')),
    'no service account',
  )
  t.ok(
    all.body.data.searchUsers.searchResults.every(
      (r: { entity: { type: string } }) => r.entity.type === 'CORP_USER',
    ),
    'the types asked for are ignored',
  )
  const withOr = await gqlAs(built.app, built.adminToken, SEARCH_USERS, {
    input: {
      query: 'al*',
      orFilters: [{ and: [{ field: 'urn', values: ['urn:li:corpuser:alice'], negated: true }] }],
    },
  })
  const orUrns = withOr.body.data.searchUsers.searchResults.map(
    (r: { entity: { urn: string } }) => r.entity.urn,
  )
  t.ok(orUrns.includes('urn:li:corpuser:albert'), 'filters apply')
  t.notOk(orUrns.includes('urn:li:corpuser:alice'), 'filters apply')
  t.notOk(
    orUrns.some((u: string) => u.includes('service_')),
    'service accounts stay out with orFilters too',
  )

  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const refused = await gqlAs(built.app, await tokenFor(built, reader), SEARCH_USERS, {
    input: { query: '*' },
  })
  t.equal(refused.body.errors?.[0]?.message, 'Unauthorized to list users and groups.')
})

t.test(
  'a user marked as a service account by hand is not one; a token minted during a delete is revoked',
  async (t) => {
    const built = await build(t, { auth: true })
    const alice = 'urn:li:corpuser:alice'
    await assignRole(built, alice, 'Admin')
    await adminWrite(built, alice, 'subTypes', { typeNames: ['SERVICE_ACCOUNT'] })
    const mint = await gqlAs(built.app, built.adminToken, TOKEN, {
      input: { type: 'SERVICE_ACCOUNT', actorUrn: alice, duration: 'ONE_HOUR', name: 'x' },
    })
    t.equal(
      mint.body.errors?.[0]?.message,
      `The specified URN is not a service account: ${alice}`,
      'no token acting as an admin',
    )
    const removed = await gqlAs(built.app, built.adminToken, DELETE, { urn: alice })
    t.equal(removed.body.errors?.[0]?.message, `The specified URN is not a service account: ${alice}`)
    t.ok(await aspectOf(built, alice, 'roleMembership'), 'alice is still there')

    for (let round = 0; round < 5; round++) {
      const account = (await gqlAs(built.app, built.adminToken, CREATE, { input: {} })).body.data
        .createServiceAccount.urn
      const [minted] = await Promise.all([
        gqlAs(built.app, built.adminToken, TOKEN, {
          input: { type: 'SERVICE_ACCOUNT', actorUrn: account, duration: 'ONE_HOUR', name: 'race' },
        }),
        gqlAs(built.app, built.adminToken, DELETE, { urn: account }),
      ])
      const token = minted.body.data?.createAccessToken?.accessToken
      if (token === undefined) continue
      const used = await gqlAs(built.app, token, '{ me { corpUser { urn } } }')
      t.equal(used.status, 401, `round ${round}: the token did not outlive its account`)
    }
  },
)
