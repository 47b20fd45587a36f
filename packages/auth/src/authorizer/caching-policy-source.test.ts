import type { ChangeLogEntry } from '@catalog/core'
import t from 'tap'
import type { PolicySource } from './authorizer.js'
import { cachingPolicySource } from './caching-policy-source.js'
import type { ActorFacts, PolicyInfo } from './policy-types.js'

const ALICE = 'urn:li:corpuser:alice'

/** A policy source counting its reads, and a change log the test appends to. */
function fixture() {
  const reads = { policies: 0, actors: 0, resources: 0, heads: 0 }
  let roles: string[] = []
  let policies: PolicyInfo[] = []
  const entries: ChangeLogEntry[] = []
  const source: PolicySource = {
    async policies() {
      reads.policies++
      return policies
    },
    async actor(urn): Promise<ActorFacts> {
      reads.actors++
      return { urn, groups: [], roles }
    },
    async resource(urn) {
      reads.resources++
      return { type: 'dataset', urn, owners: [], domains: [], tags: [] }
    },
  }
  const log = {
    async head() {
      reads.heads++
      return entries.at(-1)?.seq ?? 0
    },
    async changes(after: number, limit: number) {
      return entries.filter((e) => e.seq > after).slice(0, limit)
    },
  }
  const append = (entityType: string, urn: string, aspect: string, extra: Partial<ChangeLogEntry> = {}) =>
    entries.push({
      seq: entries.length + 1,
      urn,
      entityType,
      aspect,
      change: 'UPSERT',
      created: { time: 0, actor: ALICE },
      ...extra,
    } as ChangeLogEntry)
  return {
    reads,
    append,
    cached: cachingPolicySource(source, log),
    setRoles: (r: string[]) => {
      roles = r
    },
    setPolicies: (p: PolicyInfo[]) => {
      policies = p
    },
  }
}

t.test('policies and actors are read once until the change log shows them edited', async (t) => {
  const f = fixture()
  await f.cached.policies()
  await f.cached.policies()
  await f.cached.actor(ALICE)
  await f.cached.actor(ALICE)
  t.same([f.reads.policies, f.reads.actors], [1, 1], 'remembered')

  f.append('dataset', 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'globalTags')
  await f.cached.policies()
  await f.cached.actor(ALICE)
  t.same([f.reads.policies, f.reads.actors], [1, 1], 'other writes change nothing')

  f.setRoles(['urn:li:dataHubRole:Editor'])
  f.append('corpuser', ALICE, 'roleMembership')
  t.same((await f.cached.actor(ALICE)).roles, ['urn:li:dataHubRole:Editor'], 'a role grant counts at once')
  await f.cached.policies()
  t.same([f.reads.policies, f.reads.actors], [1, 2], 'only the actors were dropped')

  const policy: PolicyInfo = { type: 'PLATFORM', state: 'ACTIVE', privileges: ['MANAGE_TAGS'], actors: {} }
  f.setPolicies([policy])
  f.append('dataHubPolicy', 'urn:li:dataHubPolicy:x', 'dataHubPolicyInfo')
  t.same(await f.cached.policies(), [policy], 'a policy write counts at once')
  t.equal(f.reads.policies, 2)

  await f.cached.actor(ALICE)
  t.equal(f.reads.actors, 3, 'a policy write drops the actors too')
  f.append('corpGroup', 'urn:li:corpGroup:eng', 'corpGroupKey', { change: 'DELETE', entityDeleted: true })
  await f.cached.actor(ALICE)
  t.equal(f.reads.actors, 4, 'a deleted group drops the actors')

  await f.cached.resource('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)')
  await f.cached.resource('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)')
  t.equal(f.reads.resources, 2, 'resource facts are never remembered')
})

t.test('a long unread stretch of the log drops everything without reading it', async (t) => {
  const f = fixture()
  await f.cached.policies()
  for (let i = 0; i < 2_500; i++)
    f.append('dataset', `urn:li:dataset:(urn:li:dataPlatform:hive,d${i},PROD)`, 'status')
  await f.cached.policies()
  t.equal(f.reads.policies, 2, 'reloaded')
  await f.cached.policies()
  t.equal(f.reads.policies, 2, 'and remembered again')
})

t.test('checks asked together share one read of the log; a later one reads it again', async (t) => {
  const f = fixture()
  await Promise.all([f.cached.policies(), f.cached.actor(ALICE), f.cached.policies()])
  t.equal(f.reads.heads, 1, 'one catch-up for three concurrent asks')
  f.setRoles(['urn:li:dataHubRole:Reader'])
  f.append('corpuser', ALICE, 'roleMembership')
  t.same((await f.cached.actor(ALICE)).roles, ['urn:li:dataHubRole:Reader'], 'a write before the ask is seen')
  t.equal(f.reads.heads, 2)
})
