import t, { type Test } from 'tap'
import { adminWrite, aspectOf, assignRole, gql, headOf, tokenFor } from '../helpers/actors.js'
import { type Built, build, type Json } from '../helpers/build.js'
import { loadExample, toIngestCall } from '../helpers/examples.js'

/** DataHub's GraphQL users, groups and policies: lists, group membership, policy lifecycle. */

const ALICE = 'urn:li:corpuser:alice'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,ugp,PROD)'
const TAG = 'urn:li:tag:Legacy'
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.'
const ADD_TAG = `mutation { addTag(input: {tagUrn: "${TAG}", resourceUrn: "${DS}"}) }`

/** The bootstrap example (users jdoe, groups jdoe and bfoo), ingested as the admin. */
async function ingestBootstrap(built: Built): Promise<void> {
  for (const record of loadExample('bootstrap')) {
    const call = toIngestCall(record)
    const res = await built.app.inject({
      method: 'POST',
      url: call.url,
      payload: call.body as Record<string, unknown>,
      headers: { 'x-restli-protocol-version': '2.0.0', authorization: `Bearer ${built.adminToken}` },
    })
    if (res.statusCode !== 200) throw new Error(`ingest of ${call.urn}: ${res.statusCode} ${res.body}`)
  }
}

async function seed(built: Built): Promise<string> {
  await adminWrite(built, DS, 'datasetProperties', { name: 'ugp', customProperties: {} })
  await adminWrite(built, TAG, 'tagProperties', { name: 'Legacy' })
  await adminWrite(built, ALICE, 'corpUserInfo', { active: true, displayName: 'Alice' })
  return tokenFor(built, ALICE)
}

/** One error of DataHub's shape over HTTP 200, and `null` as the field's data. */
function failed(
  t: Test,
  answer: { status: number; body: Json },
  name: string,
  message: string,
  code: number,
) {
  t.equal(answer.status, 200, `${name}: HTTP 200`)
  t.same(answer.body.data, { [name]: null }, `${name}: no data`)
  t.match(answer.body.errors?.[0], { message, path: [name], extensions: { code } }, `${name}: ${message}`)
}

const GROUPS_OF = (user: string) => `{ corpUser(urn: "${user}") { relationships(input: {
  types: ["IsMemberOfGroup", "IsMemberOfNativeGroup"], direction: OUTGOING, start: 0, count: 20 }) {
  total relationships { entity { urn } } } } }`
const groupsOf = async (built: Built, user: string): Promise<string[]> => {
  const answer = await gql(built.app, built.adminToken, GROUPS_OF(user))
  return answer.body.data.corpUser.relationships.relationships.map((r: Json) => r.entity.urn).sort()
}

t.test('listUsers, listGroups and listPolicies answer from the index', async (t) => {
  const built = await build(t, { auth: true })
  await ingestBootstrap(built)
  const users = await gql(
    built.app,
    built.adminToken,
    '{ listUsers(input: {start: 0, count: 50}) { start count total users { urn type properties { displayName email } } } }',
  )
  t.notOk(users.body.errors, 'no errors')
  const jdoe = users.body.data.listUsers.users.find((u: Json) => u.urn === 'urn:li:corpuser:jdoe')
  t.same(jdoe, {
    urn: 'urn:li:corpuser:jdoe',
    type: 'CORP_USER',
    properties: { displayName: 'John Doe', email: 'jdoe@linkedin.com' },
  })
  t.equal(users.body.data.listUsers.start, 0)
  t.ok(users.body.data.listUsers.total >= 1)

  const groups = await gql(
    built.app,
    built.adminToken,
    '{ listGroups(input: {query: "bfoo"}) { total groups { urn type name properties { description email } } } }',
  )
  t.notOk(groups.body.errors, 'no errors')
  t.match(groups.body.data.listGroups.groups[0], {
    urn: 'urn:li:corpGroup:bfoo',
    type: 'CORP_GROUP',
    name: 'bfoo',
    properties: { description: 'This group is full of bfoos!', email: 'bfoo@linkedin.com' },
  })
  const all = await gql(built.app, built.adminToken, '{ listGroups(input: {}) { total groups { urn } } }')
  t.same(all.body.data.listGroups.groups.map((g: Json) => g.urn).sort(), [
    'urn:li:corpGroup:bfoo',
    'urn:li:corpGroup:jdoe',
  ])

  const policies = await gql(
    built.app,
    built.adminToken,
    `{ listPolicies(input: {start: 0, count: 100}) { total policies { urn type name state editable privileges
      actors { users allUsers resourceOwners resolvedUsers { urn } } } } }`,
  )
  t.notOk(policies.body.errors, 'no errors')
  const list = policies.body.data.listPolicies
  t.ok(list.total >= 10, `the default policies are listed (${list.total})`)
  const root = list.policies.find((p: Json) => p.urn === 'urn:li:dataHubPolicy:0')
  t.match(root, {
    type: 'PLATFORM',
    name: 'Root User - All Platform Privileges',
    state: 'ACTIVE',
    editable: false,
    actors: {
      users: ['urn:li:corpuser:datahub'],
      allUsers: false,
      resolvedUsers: [{ urn: 'urn:li:corpuser:datahub' }],
    },
  })
  t.ok(root.privileges.includes('MANAGE_POLICIES'))
  const paged = await gql(
    built.app,
    built.adminToken,
    '{ listPolicies(input: {start: 1, count: 2}) { start count policies { urn } } }',
  )
  t.same(paged.body.data.listPolicies.start, 1)
  t.equal(paged.body.data.listPolicies.policies.length, 2, 'paged by start and count')
})

t.test('createGroup, addGroupMembers and removeGroupMembers', async (t) => {
  const built = await build(t, { auth: true })
  await seed(built)
  await ingestBootstrap(built)
  const created = await gql(
    built.app,
    built.adminToken,
    'mutation { createGroup(input: {id: "eng", name: "Engineering", description: "builders"}) }',
  )
  t.same(created.body, { data: { createGroup: 'urn:li:corpGroup:eng' } })
  t.match(await aspectOf(built, 'urn:li:corpGroup:eng', 'corpGroupInfo'), {
    displayName: 'Engineering',
    description: 'builders',
    members: [],
    created: { actor: 'urn:li:corpuser:datahub' },
  })
  t.same(await aspectOf(built, 'urn:li:corpGroup:eng', 'origin'), { type: 'NATIVE' })
  const random = await gql(built.app, built.adminToken, 'mutation { createGroup(input: {name: "Anon"}) }')
  t.match(random.body.data.createGroup, /^urn:li:corpGroup:[0-9a-f-]{36}$/, 'a random id without one')

  const add = (group: string, users: string[]) =>
    gql(
      built.app,
      built.adminToken,
      'mutation($g: String!, $u: [String!]!) { addGroupMembers(input: {groupUrn: $g, userUrns: $u}) }',
      { g: group, u: users },
    )
  const head = await headOf(built)
  const bad: Array<[string, string, string, number]> = [
    ['createGroup', 'createGroup(input: {id: "eng", name: "Again"})', 'This Group already exists!', 400],
    ['createGroup', 'createGroup(input: {id: " ", name: "Blank"})', 'Group id must not be empty', 400],
    [
      'addGroupMembers',
      `addGroupMembers(input: {groupUrn: "urn:li:corpGroup:nope", userUrns: ["${ALICE}"]})`,
      'Failed to add members to group urn:li:corpGroup:nope. Group does not exist.',
      404,
    ],
    [
      'addGroupMembers',
      `addGroupMembers(input: {groupUrn: "urn:li:corpGroup:eng", userUrns: ["${ALICE}", "urn:li:corpuser:ghost"]})`,
      'Failed to add member to group. User does not exist.',
      404,
    ],
    [
      'addGroupMembers',
      `addGroupMembers(input: {groupUrn: "urn:li:corpGroup:eng", userUrns: ["${TAG}"]})`,
      `${TAG} is not a corpuser urn`,
      400,
    ],
    [
      'removeGroupMembers',
      `removeGroupMembers(input: {groupUrn: "urn:li:corpGroup:nope", userUrns: ["${ALICE}"]})`,
      'Failed to add remove members from group urn:li:corpGroup:nope. Group does not exist.',
      404,
    ],
  ]
  for (const [name, call, message, code] of bad) {
    failed(t, await gql(built.app, built.adminToken, `mutation { ${call} }`), name, message, code)
  }
  t.equal(await headOf(built), head, 'no bad input wrote anything')
  t.same(await groupsOf(built, ALICE), [], 'alice is in no group yet')

  t.same((await add('urn:li:corpGroup:eng', [ALICE, 'urn:li:corpuser:jdoe'])).body, {
    data: { addGroupMembers: true },
  })
  t.same(
    (await add('urn:li:corpGroup:eng', [ALICE])).body,
    { data: { addGroupMembers: true } },
    'again: no duplicate',
  )
  t.same(await aspectOf(built, ALICE, 'nativeGroupMembership'), { nativeGroups: ['urn:li:corpGroup:eng'] })
  t.same(await groupsOf(built, ALICE), ['urn:li:corpGroup:eng'], "the user's groups")
  t.same((await add('urn:li:corpGroup:bfoo', ['urn:li:corpuser:jdoe'])).body, {
    data: { addGroupMembers: true },
  })
  t.same(await groupsOf(built, 'urn:li:corpuser:jdoe'), ['urn:li:corpGroup:bfoo', 'urn:li:corpGroup:eng'])

  const listed = await gql(
    built.app,
    built.adminToken,
    `{ listGroups(input: {query: "Engineering"}) { groups { urn properties { displayName }
      relationships(input: {types: ["IsMemberOfNativeGroup"], direction: INCOMING, start: 0, count: 10}) { total } } } }`,
  )
  t.same(listed.body.data.listGroups.groups, [
    { urn: 'urn:li:corpGroup:eng', properties: { displayName: 'Engineering' }, relationships: { total: 2 } },
  ])

  const remove = await gql(
    built.app,
    built.adminToken,
    `mutation { removeGroupMembers(input: {groupUrn: "urn:li:corpGroup:eng", userUrns: ["${ALICE}"]}) }`,
  )
  t.same(remove.body, { data: { removeGroupMembers: true } })
  t.same(await groupsOf(built, ALICE), [], 'alice left the group')
  t.same(
    await groupsOf(built, 'urn:li:corpuser:jdoe'),
    ['urn:li:corpGroup:bfoo', 'urn:li:corpGroup:eng'],
    'jdoe stays',
  )
  // Membership written by an identity source (groupMembership) is removed too.
  await adminWrite(built, ALICE, 'groupMembership', { groups: ['urn:li:corpGroup:bfoo'] })
  t.same(await groupsOf(built, ALICE), ['urn:li:corpGroup:bfoo'])
  const leave = await gql(
    built.app,
    built.adminToken,
    `mutation { removeGroupMembers(input: {groupUrn: "urn:li:corpGroup:bfoo", userUrns: ["${ALICE}"]}) }`,
  )
  t.same(leave.body, { data: { removeGroupMembers: true } })
  t.same(await aspectOf(built, ALICE, 'groupMembership'), { groups: [] })
  t.same(await groupsOf(built, ALICE), [], 'alice is in no group')
})

/**
 * In split mode the metadata service checks a mutation's writes again as REST writes of the
 * caller, which need EDIT_ENTITY (README, Access control): the policy grants it there too.
 */
const PRIVILEGES =
  process.env.CATALOG_E2E_SPLIT === '1' ? ['EDIT_ENTITY_TAGS', 'EDIT_ENTITY'] : ['EDIT_ENTITY_TAGS']
const POLICY_INPUT = `{type: METADATA, name: "alice tags", state: ACTIVE, description: "tags on one dataset",
  privileges: ${JSON.stringify(PRIVILEGES)}, actors: {users: ["${ALICE}"], resourceOwners: false, allUsers: false, allGroups: false},
  resources: {filter: {criteria: [{field: "URN", values: ["${DS}"], condition: EQUALS}]}}}`

t.test('a created policy counts from the next request; a deleted one no more', async (t) => {
  const built = await build(t, { auth: true })
  const alice = await seed(built)
  await assignRole(built, ALICE, 'Reader')
  failed(t, await gql(built.app, alice, ADD_TAG), 'addTag', UNAUTHORIZED, 403)

  const created = await gql(built.app, built.adminToken, `mutation { createPolicy(input: ${POLICY_INPUT}) }`)
  const urn = created.body.data?.createPolicy
  t.match(urn, /^urn:li:dataHubPolicy:[0-9a-f-]{36}$/, 'the new policy URN')
  t.same((await gql(built.app, alice, ADD_TAG)).body, { data: { addTag: true } }, 'the policy took effect')

  const listed = await gql(
    built.app,
    built.adminToken,
    `{ listPolicies(input: {query: "alice tags"}) { policies { urn name description editable privileges
      actors { users } resources { filter { criteria { field condition values { value entity { urn } } } } } } } }`,
  )
  t.same(
    listed.body.data.listPolicies.policies.find((p: Json) => p.urn === urn),
    {
      urn,
      name: 'alice tags',
      description: 'tags on one dataset',
      editable: true,
      privileges: PRIVILEGES,
      actors: { users: [ALICE] },
      resources: {
        filter: {
          criteria: [{ field: 'URN', condition: 'EQUALS', values: [{ value: DS, entity: { urn: DS } }] }],
        },
      },
    },
  )

  const inactive = POLICY_INPUT.replace('state: ACTIVE', 'state: INACTIVE')
  const updated = await gql(
    built.app,
    built.adminToken,
    `mutation { updatePolicy(urn: "${urn}", input: ${inactive}) }`,
  )
  t.same(updated.body, { data: { updatePolicy: urn } })
  failed(t, await gql(built.app, alice, ADD_TAG), 'addTag', UNAUTHORIZED, 403)
  await gql(built.app, built.adminToken, `mutation { updatePolicy(urn: "${urn}", input: ${POLICY_INPUT}) }`)
  t.same((await gql(built.app, alice, ADD_TAG)).body, { data: { addTag: true } }, 'active again')

  t.same((await gql(built.app, built.adminToken, `mutation { deletePolicy(urn: "${urn}") }`)).body, {
    data: { deletePolicy: urn },
  })
  failed(t, await gql(built.app, alice, ADD_TAG), 'addTag', UNAUTHORIZED, 403)
  t.equal(await aspectOf(built, urn, 'dataHubPolicyInfo'), undefined, 'the policy is gone')

  const head = await headOf(built)
  const noUser = POLICY_INPUT.replace(`users: ["${ALICE}"]`, 'users: ["alice"]')
  const bad: Array<[string, string, string, number]> = [
    ['deletePolicy', `deletePolicy(urn: "${urn}")`, `Policy ${urn} does not exist`, 404],
    [
      'updatePolicy',
      `updatePolicy(urn: "${DS}", input: ${POLICY_INPUT})`,
      `${DS} is not a dataHubPolicy urn`,
      400,
    ],
    [
      'createPolicy',
      `createPolicy(input: ${noUser})`,
      'Failed to convert urnStr alice into an URN object',
      400,
    ],
  ]
  for (const [name, call, message, code] of bad) {
    failed(t, await gql(built.app, built.adminToken, `mutation { ${call} }`), name, message, code)
  }
  t.equal(await headOf(built), head, 'bad input wrote nothing')
})

t.test('a Reader lists and manages none of them', async (t) => {
  const built = await build(t, { auth: true })
  const alice = await seed(built)
  await assignRole(built, ALICE, 'Reader')
  await gql(built.app, built.adminToken, 'mutation { createGroup(input: {id: "eng", name: "Engineering"}) }')
  const head = await headOf(built)
  for (const name of ['listUsers', 'listGroups', 'listPolicies']) {
    failed(t, await gql(built.app, alice, `{ ${name}(input: {}) { total } }`), name, UNAUTHORIZED, 403)
  }
  const mutations: Array<[string, string]> = [
    ['createGroup', 'createGroup(input: {id: "mine", name: "Mine"})'],
    ['addGroupMembers', `addGroupMembers(input: {groupUrn: "urn:li:corpGroup:eng", userUrns: ["${ALICE}"]})`],
    [
      'removeGroupMembers',
      `removeGroupMembers(input: {groupUrn: "urn:li:corpGroup:eng", userUrns: ["${ALICE}"]})`,
    ],
    ['createPolicy', `createPolicy(input: ${POLICY_INPUT})`],
    ['updatePolicy', `updatePolicy(urn: "urn:li:dataHubPolicy:0", input: ${POLICY_INPUT})`],
    ['deletePolicy', 'deletePolicy(urn: "urn:li:dataHubPolicy:0")'],
  ]
  for (const [name, call] of mutations) {
    failed(t, await gql(built.app, alice, `mutation { ${call} }`), name, UNAUTHORIZED, 403)
  }
  t.equal(await headOf(built), head, 'nothing was written')
  t.equal(await aspectOf(built, ALICE, 'nativeGroupMembership'), undefined)
})
