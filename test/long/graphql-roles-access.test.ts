import t from 'tap'
import { adminWrite, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * Access roles (`urn:li:role:<id>`, DataHub's access management): `role(urn)`, `Role.actors` and
 * `isAssignedToMe`, and the `access` of datasets, dashboards and containers.
 */

const ROLE = 'urn:li:role:snowflake_reader'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,db.orders,PROD)'
const DASH = 'urn:li:dashboard:(looker,sales)'
const CONTAINER = 'urn:li:container:warehouse'
const ALICE = 'urn:li:corpuser:alice'
const BOB = 'urn:li:corpuser:bob'
const ANALYSTS = 'urn:li:corpGroup:analysts'

const ROLE_QUERY = `query($urn: String!) { role(urn: $urn) { urn type id
  properties { name description type requestUrl }
  actors { users { user { urn } } groups { group { urn } } } isAssignedToMe } }`

t.test('a role reads as DataHub maps it; the entities it grants access to list it', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'role', ROLE, 'roleProperties', {
    name: 'Snowflake reader',
    description: 'Read access to the warehouse',
    type: 'READ',
    requestUrl: 'https://access.example.com/request/snowflake_reader',
  })
  await ingestAspect(app, 'role', ROLE, 'actors', {
    users: [{ user: 'urn:li:corpuser:datahub' }, { user: ALICE }],
    groups: [{ group: ANALYSTS }],
  })
  const read = await gql(app, ROLE_QUERY, { urn: ROLE })
  t.notOk(read.errors, 'no errors')
  t.same(read.data.role, {
    urn: ROLE,
    type: 'ROLE',
    id: 'snowflake_reader',
    properties: {
      name: 'Snowflake reader',
      description: 'Read access to the warehouse',
      type: 'READ',
      requestUrl: 'https://access.example.com/request/snowflake_reader',
    },
    actors: {
      users: [{ user: { urn: 'urn:li:corpuser:datahub' } }, { user: { urn: ALICE } }],
      groups: [{ group: { urn: ANALYSTS } }],
    },
    isAssignedToMe: true,
  })

  for (const [type, urn] of [
    ['dataset', DS],
    ['dashboard', DASH],
    ['container', CONTAINER],
  ] as const) {
    await ingestAspect(app, type, urn, 'access', { roles: [{ urn: ROLE }] })
  }
  const access = await gql(
    app,
    `query($ds: String!, $dash: String!, $c: String!) {
      dataset(urn: $ds) { access { roles { associatedUrn role { urn properties { name } } } } }
      dashboard(urn: $dash) { access { roles { associatedUrn role { urn } } } }
      container(urn: $c) { access { roles { associatedUrn role { urn } } } } }`,
    { ds: DS, dash: DASH, c: CONTAINER },
  )
  t.notOk(access.errors, 'no errors')
  t.same(
    access.data.dataset.access,
    { roles: [{ associatedUrn: DS, role: { urn: ROLE, properties: { name: 'Snowflake reader' } } }] },
    'the role is resolved',
  )
  t.same(access.data.dashboard.access, { roles: [{ associatedUrn: DASH, role: { urn: ROLE } }] })
  t.same(access.data.container.access, { roles: [{ associatedUrn: CONTAINER, role: { urn: ROLE } }] })

  const none = await gql(
    app,
    'query($u: String!) { dataset(urn: $u) { access { roles { associatedUrn } } } }',
    {
      u: 'urn:li:dataset:(urn:li:dataPlatform:hive,unknown,PROD)',
    },
  )
  t.same(none.data.dataset.access, null, 'no access aspect: null')

  const found = await gql(
    app,
    `{ searchAcrossEntities(input: {types: [ROLE], query: "snowflake", start: 0, count: 10}) {
      total searchResults { entity { urn type ... on Role { properties { name } } } } } }`,
  )
  t.notOk(found.errors, 'roles are searchable')
  t.same(found.data.searchAcrossEntities.searchResults, [
    { entity: { urn: ROLE, type: 'ROLE', properties: { name: 'Snowflake reader' } } },
  ])
})

t.test('a role the caller is not assigned to, directly or by group', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, ROLE, 'actors', { users: [{ user: ALICE }], groups: [{ group: ANALYSTS }] })
  await adminWrite(built, BOB, 'corpUserInfo', { active: true, displayName: 'Bob' })
  await adminWrite(built, ALICE, 'corpUserInfo', { active: true, displayName: 'Alice' })
  const bob = await tokenFor(built, BOB)
  const alice = await tokenFor(built, ALICE)
  const assigned = async (token: string) =>
    (await gqlAs(built.app, token, 'query($u: String!) { role(urn: $u) { isAssignedToMe } }', { u: ROLE }))
      .body
  t.same(await assigned(alice), { data: { role: { isAssignedToMe: true } } }, 'a listed user')
  t.same(await assigned(bob), { data: { role: { isAssignedToMe: false } } }, 'not listed, in no group')
  await adminWrite(built, BOB, 'nativeGroupMembership', { nativeGroups: [ANALYSTS] })
  t.same(await assigned(bob), { data: { role: { isAssignedToMe: true } } }, 'a member of a listed group')
  await adminWrite(built, BOB, 'nativeGroupMembership', { nativeGroups: [] })
  await adminWrite(built, BOB, 'groupMembership', { groups: [ANALYSTS] })
  t.same(
    await assigned(bob),
    { data: { role: { isAssignedToMe: true } } },
    'an external group membership counts too',
  )
})

t.test('a role of no actors; a urn of another type', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'role', ROLE, 'roleProperties', { name: 'Snowflake reader', type: 'READ' })
  const read = await gql(app, ROLE_QUERY, { urn: ROLE })
  t.same(read.data.role.actors, null)
  t.equal(read.data.role.isAssignedToMe, false)
  t.same(read.data.role.properties, {
    name: 'Snowflake reader',
    description: null,
    type: 'READ',
    requestUrl: null,
  })
  const wrong = await gql(app, ROLE_QUERY, { urn: DS })
  t.match(wrong.errors?.[0]?.message, /expected a role urn/)
})
