import t from 'tap'
import { adminWrite, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql } from '../helpers/mutation-kit.js'

/** `debugAccess(userUrn)`: how a user gets its roles, policies and privileges (DataHub's DebugAccessResolver). */

const BOB = 'urn:li:corpuser:bob'
const ANALYSTS = 'urn:li:corpGroup:analysts'
const AUDITORS = 'urn:li:corpGroup:auditors'
const QUERY = `query($u: String!) { debugAccess(userUrn: $u) {
  roles groups groupsWithRoles rolesViaGroups allRoles policies privileges } }`

t.test("a user's roles, its groups' roles, the policies naming them and their privileges", async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, BOB, 'corpUserInfo', { active: true, displayName: 'Bob' })
  await assignRole(built, BOB, 'Reader')
  await adminWrite(built, BOB, 'nativeGroupMembership', { nativeGroups: [ANALYSTS, AUDITORS] })
  await adminWrite(built, ANALYSTS, 'corpGroupInfo', {
    displayName: 'Analysts',
    admins: [],
    members: [],
    groups: [],
  })
  await adminWrite(built, ANALYSTS, 'roleMembership', { roles: ['urn:li:dataHubRole:Editor'] })
  await adminWrite(built, 'urn:li:dataHubPolicy:bob-only', 'dataHubPolicyInfo', {
    displayName: 'Bob only',
    description: 'Only Bob',
    type: 'PLATFORM',
    state: 'INACTIVE',
    privileges: ['MANAGE_TESTS'],
    actors: { users: [BOB], resourceOwners: false, allUsers: false, allGroups: false },
    editable: true,
    lastUpdatedTimestamp: Date.now() + 60_000,
  })
  await adminWrite(built, 'urn:li:dataHubPolicy:others', 'dataHubPolicyInfo', {
    displayName: 'Someone else',
    description: 'Carol',
    type: 'PLATFORM',
    state: 'ACTIVE',
    privileges: ['MANAGE_SECRETS'],
    actors: { users: ['urn:li:corpuser:carol'], resourceOwners: false, allUsers: false, allGroups: false },
    editable: true,
  })

  const res = await gqlAs(built.app, built.adminToken, QUERY, { u: BOB })
  t.notOk(res.body.errors, 'no errors')
  const debug = res.body.data.debugAccess
  t.same(debug.roles, ['urn:li:dataHubRole:Reader'], 'its own role')
  t.same(debug.groups, [ANALYSTS, AUDITORS], 'its groups')
  t.same(debug.groupsWithRoles, [ANALYSTS], 'the groups having a role')
  t.same(debug.rolesViaGroups, ['urn:li:dataHubRole:Editor'])
  t.same(debug.allRoles.sort(), ['urn:li:dataHubRole:Editor', 'urn:li:dataHubRole:Reader'])
  t.equal(
    debug.policies[0],
    'urn:li:dataHubPolicy:bob-only',
    'a policy naming the user, inactive too, newest first',
  )
  t.notOk(debug.policies.includes('urn:li:dataHubPolicy:others'), 'not a policy naming someone else')
  t.ok(
    debug.policies.includes('urn:li:dataHubPolicy:editor-platform-policy'),
    "the Editor role's policy, through the group",
  )
  t.notOk(debug.policies.includes('urn:li:dataHubPolicy:admin-platform-policy'), 'not the Admin role policy')
  t.ok(debug.privileges.includes('MANAGE_TESTS'), 'the privileges of the policies')
  t.notOk(debug.privileges.includes('MANAGE_SECRETS'))
  t.equal(new Set(debug.privileges).size, debug.privileges.length, 'each privilege once')

  const bob = await tokenFor(built, BOB)
  const denied = await gqlAs(built.app, bob, QUERY, { u: BOB })
  t.match(
    denied.body.errors?.[0],
    { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.' },
    'MANAGE_USERS_AND_GROUPS is required',
  )
  t.same(denied.body.data, null)
})

t.test('a user of no roles or groups; a urn that is not one', async (t) => {
  const { app } = await build(t)
  const res = await gql(app, QUERY, { u: 'urn:li:corpuser:nobody' })
  t.notOk(res.errors)
  t.match(res.data.debugAccess, {
    roles: [],
    groups: [],
    groupsWithRoles: [],
    rolesViaGroups: [],
    allRoles: [],
  })
  const bad = await gql(app, QUERY, { u: 'nobody' })
  t.ok(bad.errors?.length, 'a malformed urn is refused')
})
