import { ROOT_ACTOR, SYSTEM_ACTOR } from '@catalog/core'
import t from 'tap'
import { Authorizer, type PolicySource } from './authorizer.js'
import { DEFAULT_POLICIES } from './default-policies.js'
import { policyGrants } from './policy-engine.js'
import type { ActorFacts, PolicyInfo, ResourceFacts } from './policy-types.js'
import { writePrivileges } from './privileges.js'

const ALICE = 'urn:li:corpuser:alice'
const BOB = 'urn:li:corpuser:bob'
const ENG = 'urn:li:corpGroup:eng'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)'
const alice: ActorFacts = { urn: ALICE, groups: [], roles: [] }
const bob: ActorFacts = { urn: BOB, groups: [ENG], roles: [] }

function dataset(over: Partial<ResourceFacts> = {}): ResourceFacts {
  return { type: 'dataset', urn: DS, owners: [], domains: [], tags: [], ...over }
}

function metadata(over: Partial<PolicyInfo>): PolicyInfo {
  return { type: 'METADATA', state: 'ACTIVE', privileges: ['EDIT_ENTITY_TAGS'], actors: {}, ...over }
}

t.test('owner-based policies grant only on resources the actor (or its group) owns', async (t) => {
  const owners = metadata({ actors: { resourceOwners: true } })
  t.notOk(policyGrants(owners, 'EDIT_ENTITY_TAGS', alice, dataset()), 'not an owner')
  t.ok(policyGrants(owners, 'EDIT_ENTITY_TAGS', alice, dataset({ owners: [{ owner: ALICE }] })), 'owner')
  t.ok(
    policyGrants(owners, 'EDIT_ENTITY_TAGS', bob, dataset({ owners: [{ owner: ENG }] })),
    'owner through a group',
  )
  t.notOk(policyGrants(owners, 'EDIT_ENTITY_TAGS', alice, undefined), 'no resource, no owner')
  const typed = metadata({
    actors: { resourceOwners: true, resourceOwnersTypes: ['urn:li:ownershipType:__system__technical_owner'] },
  })
  t.notOk(
    policyGrants(
      typed,
      'EDIT_ENTITY_TAGS',
      alice,
      dataset({ owners: [{ owner: ALICE, typeUrn: 'urn:li:ownershipType:x' }] }),
    ),
    'an owner of another type',
  )
  t.ok(
    policyGrants(
      typed,
      'EDIT_ENTITY_TAGS',
      alice,
      dataset({ owners: [{ owner: ALICE, typeUrn: 'urn:li:ownershipType:__system__technical_owner' }] }),
    ),
    'an owner of the named type',
  )
  t.notOk(
    policyGrants(owners, 'EDIT_ENTITY_OWNERS', alice, dataset({ owners: [{ owner: ALICE }] })),
    'privilege not listed',
  )
})

t.test('group-, role-, user- and all-users policies', async (t) => {
  const byGroup = metadata({ actors: { groups: [ENG] } })
  t.ok(policyGrants(byGroup, 'EDIT_ENTITY_TAGS', bob, dataset()))
  t.notOk(policyGrants(byGroup, 'EDIT_ENTITY_TAGS', alice, dataset()))
  const allGroups = metadata({ actors: { allGroups: true } })
  t.ok(policyGrants(allGroups, 'EDIT_ENTITY_TAGS', bob, dataset()), 'bob is in a group')
  t.notOk(policyGrants(allGroups, 'EDIT_ENTITY_TAGS', alice, dataset()), 'alice is in none')
  const byRole = metadata({ actors: { roles: ['urn:li:dataHubRole:Editor'] } })
  t.ok(
    policyGrants(byRole, 'EDIT_ENTITY_TAGS', { ...alice, roles: ['urn:li:dataHubRole:Editor'] }, dataset()),
  )
  t.notOk(policyGrants(byRole, 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.ok(policyGrants(metadata({ actors: { users: [ALICE] } }), 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.ok(policyGrants(metadata({ actors: { allUsers: true } }), 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.notOk(
    policyGrants(
      metadata({ actors: { allUsers: true }, state: 'INACTIVE' }),
      'EDIT_ENTITY_TAGS',
      alice,
      dataset(),
    ),
    'an inactive policy grants nothing',
  )
})

t.test('resource filters: type, URN, domain, tag; conditions', async (t) => {
  const withFilter = (field: string, values: string[], condition?: string) =>
    metadata({
      actors: { allUsers: true },
      resources: { filter: { criteria: [{ field, values, ...(condition ? { condition } : {}) }] } },
    })
  t.ok(policyGrants(withFilter('TYPE', ['dataset']), 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.notOk(policyGrants(withFilter('RESOURCE_TYPE', ['chart']), 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.ok(policyGrants(withFilter('URN', [DS]), 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.notOk(
    policyGrants(withFilter('RESOURCE_URN', ['urn:li:dataset:x']), 'EDIT_ENTITY_TAGS', alice, dataset()),
  )
  t.ok(
    policyGrants(
      withFilter('URN', ['urn:li:dataset:(urn:li:dataPlatform:hive'], 'STARTS_WITH'),
      'EDIT_ENTITY_TAGS',
      alice,
      dataset(),
    ),
  )
  t.notOk(policyGrants(withFilter('TYPE', ['dataset'], 'NOT_EQUALS'), 'EDIT_ENTITY_TAGS', alice, dataset()))
  const sales = 'urn:li:domain:sales'
  t.ok(policyGrants(withFilter('DOMAIN', [sales]), 'EDIT_ENTITY_TAGS', alice, dataset({ domains: [sales] })))
  t.notOk(policyGrants(withFilter('DOMAIN', [sales]), 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.ok(
    policyGrants(
      withFilter('TAG', ['urn:li:tag:pii']),
      'EDIT_ENTITY_TAGS',
      alice,
      dataset({ tags: ['urn:li:tag:pii'] }),
    ),
  )
  t.notOk(policyGrants(withFilter('TAG', ['urn:li:tag:pii']), 'EDIT_ENTITY_TAGS', alice, dataset()))
  t.notOk(
    policyGrants(withFilter('TYPE', ['dataset']), 'EDIT_ENTITY_TAGS', alice, undefined),
    'a filter needs a resource',
  )
  const legacy = metadata({ actors: { allUsers: true }, resources: { type: 'dataset', resources: [DS] } })
  t.ok(policyGrants(legacy, 'EDIT_ENTITY_TAGS', alice, dataset()), 'legacy type + resources')
  t.notOk(policyGrants(legacy, 'EDIT_ENTITY_TAGS', alice, dataset({ urn: 'urn:li:dataset:y' })))
  const both = metadata({
    actors: { allUsers: true },
    resources: {
      filter: {
        criteria: [
          { field: 'TYPE', values: ['dataset'] },
          { field: 'DOMAIN', values: [sales] },
        ],
      },
    },
  })
  t.notOk(policyGrants(both, 'EDIT_ENTITY_TAGS', alice, dataset()), 'criteria are all required')
  t.ok(policyGrants(both, 'EDIT_ENTITY_TAGS', alice, dataset({ domains: [sales] })))
})

t.test('platform policies ignore resources; metadata policies without a filter cover all', async (t) => {
  const platform: PolicyInfo = {
    type: 'PLATFORM',
    state: 'ACTIVE',
    privileges: ['MANAGE_POLICIES'],
    actors: { users: [ALICE] },
    resources: { filter: { criteria: [{ field: 'TYPE', values: ['chart'] }] } },
  }
  t.ok(policyGrants(platform, 'MANAGE_POLICIES', alice, undefined))
  t.ok(policyGrants(platform, 'MANAGE_POLICIES', alice, dataset()))
  t.ok(policyGrants(metadata({ actors: { users: [ALICE] } }), 'EDIT_ENTITY_TAGS', alice, undefined))
})

t.test('the Authorizer over the default policies', async (t) => {
  const memberships: Record<string, ActorFacts> = {
    [ALICE]: alice,
    'urn:li:corpuser:ed': { urn: 'urn:li:corpuser:ed', groups: [], roles: ['urn:li:dataHubRole:Editor'] },
    'urn:li:corpuser:ann': { urn: 'urn:li:corpuser:ann', groups: [], roles: ['urn:li:dataHubRole:Admin'] },
  }
  const source: PolicySource = {
    policies: async () => DEFAULT_POLICIES.map((p) => p.info),
    actor: async (urn) => memberships[urn] ?? { urn, groups: [], roles: [] },
    resource: async (urn) =>
      dataset({ urn, type: urn.split(':')[2] as string, owners: urn === DS ? [{ owner: ALICE }] : [] }),
  }
  const authz = new Authorizer(source)
  const need = (type: string, aspect: string | undefined, changeType: string, resource: string) =>
    writePrivileges(type, aspect, changeType).map((anyOf) => ({ anyOf, resource }))
  const token = 'urn:li:dataHubAccessToken:abc'
  t.notOk(await authz.authorize(ALICE, need('dataHubAccessToken', 'dataHubAccessTokenKey', 'DELETE', token)))
  t.ok(
    await authz.authorize(
      'urn:li:corpuser:ann',
      need('dataHubAccessToken', 'dataHubAccessTokenKey', 'DELETE', token),
    ),
  )
  t.notOk(
    await authz.authorize('urn:li:corpuser:ed', need('dataHubAccessToken', undefined, 'DELETE', token)),
    'Editors cannot',
  )
  t.ok(await authz.authorize(ALICE, need('dataset', 'globalTags', 'UPSERT', DS)), 'alice owns DS')
  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,other,PROD)'
  t.notOk(await authz.authorize(ALICE, need('dataset', 'globalTags', 'UPSERT', other)))
  t.ok(
    await authz.authorize('urn:li:corpuser:ed', need('dataset', 'globalTags', 'UPSERT', other)),
    'Editors edit datasets',
  )
  t.notOk(await authz.authorize('urn:li:corpuser:ed', need('corpuser', 'corpUserInfo', 'UPSERT', ROOT_ACTOR)))
  t.notOk(await authz.authorize(ALICE, [{ anyOf: ['TRUNCATE_TIMESERIES_INDEX_PRIVILEGE'] }]))
  t.ok(await authz.authorize('urn:li:corpuser:ann', [{ anyOf: ['TRUNCATE_TIMESERIES_INDEX_PRIVILEGE'] }]))
  t.ok(await authz.authorize(ALICE, [{ anyOf: ['GENERATE_PERSONAL_ACCESS_TOKENS'] }]), 'policy 7: all users')
  t.ok(await authz.authorize(ROOT_ACTOR, [{ anyOf: ['MANAGE_POLICIES'] }]))
  t.ok(await authz.authorize(SYSTEM_ACTOR, [{ anyOf: ['ANYTHING'] }]))
  t.same(writePrivileges('corpuser', 'corpUserCredentials', 'UPSERT'), [
    ['UPDATE_USERS_AND_GROUPS', 'MANAGE_USERS_AND_GROUPS'],
    ['MANAGE_USER_CREDENTIALS'],
  ])
})

t.test('the resource is read only when no resource-independent policy grants', async (t) => {
  let reads = 0
  const policies: PolicyInfo[] = [
    metadata({ privileges: ['VIEW_ENTITY_PAGE'], actors: { allUsers: true } }),
    metadata({ privileges: ['EDIT_ENTITY'], actors: { resourceOwners: true } }),
  ]
  const source: PolicySource = {
    policies: async () => policies,
    actor: async (urn) => ({ urn, groups: [], roles: [] }),
    resource: async () => {
      reads++
      return dataset({ owners: [{ owner: ALICE }] })
    },
  }
  const authorizer = new Authorizer(source)
  t.ok(await authorizer.authorize(ALICE, [{ anyOf: ['VIEW_ENTITY_PAGE'], resource: DS }]))
  t.equal(reads, 0, 'granted to all users on every resource: no read')
  t.ok(await authorizer.authorize(ALICE, [{ anyOf: ['EDIT_ENTITY'], resource: DS }]), 'owner')
  t.equal(reads, 1, 'ownership needs the resource')
  t.notOk(await authorizer.authorize(BOB, [{ anyOf: ['EDIT_ENTITY'], resource: DS }]), 'not an owner')
  t.same(await authorizer.grantedPrivileges(ALICE, DS), ['VIEW_ENTITY_PAGE', 'EDIT_ENTITY'])
  t.same(await authorizer.grantedPrivileges(BOB, DS), ['VIEW_ENTITY_PAGE'])
  t.same([...(await authorizer.granted(BOB, ['VIEW_ENTITY_PAGE', 'EDIT_ENTITY'], DS))], ['VIEW_ENTITY_PAGE'])
})
