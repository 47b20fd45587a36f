import type { ChangeLogEntry } from '@catalog/core'
import t from 'tap'
import { cachingActorStatus, type StatusAspects } from './caching-actor-status.js'

const ALICE = 'urn:li:corpuser:alice'
const BOB = 'urn:li:corpuser:bob'

/** Users' status aspects, a change log the test appends to, and counts of the reads made. */
function fixture() {
  const reads = { users: 0, heads: 0 }
  const users = new Map<string, StatusAspects>()
  const entries: ChangeLogEntry[] = []
  const write = (urn: string, aspect: string, value: StatusAspects[keyof StatusAspects]) => {
    users.set(urn, { ...users.get(urn), [aspect]: value })
    entries.push({
      seq: entries.length + 1,
      urn,
      entityType: urn.split(':')[2] as string,
      aspect,
      change: 'UPSERT',
      created: { time: 0, actor: ALICE },
    } as ChangeLogEntry)
  }
  const status = cachingActorStatus(
    async (actor) => {
      reads.users++
      return users.get(actor) ?? {}
    },
    {
      async head() {
        reads.heads++
        return entries.at(-1)?.seq ?? 0
      },
      async changes(after, limit) {
        return entries.filter((e) => e.seq > after).slice(0, limit)
      },
    },
  )
  return { reads, write, status }
}

t.test('a user is read once, then answered from the cache while nothing about it changes', async (t) => {
  const { reads, write, status } = fixture()
  for (let i = 0; i < 5; i++) t.equal(await status.isInactive(ALICE), false)
  t.equal(reads.users, 1, 'one read of the user for five checks')
  write('urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)', 'status', { removed: true })
  write(BOB, 'corpUserStatus', { status: 'SUSPENDED' })
  t.equal(await status.isInactive(ALICE), false)
  t.equal(reads.users, 1, "writes to other entities keep alice's state")
  t.equal(await status.isInactive(BOB), true)
})

t.test('a suspension, a reactivation and a soft delete are seen by the next check', async (t) => {
  const { reads, write, status } = fixture()
  t.equal(await status.isInactive(ALICE), false)
  write(ALICE, 'corpUserStatus', { status: 'SUSPENDED' })
  t.equal(await status.isInactive(ALICE), true, 'suspended: seen at once')
  write(ALICE, 'corpUserStatus', { status: 'ACTIVE' })
  t.equal(await status.isInactive(ALICE), false, 'active again: seen at once')
  write(ALICE, 'status', { removed: true })
  t.equal(await status.isInactive(ALICE), true, 'soft-deleted: seen at once')
  t.equal(reads.users, 4, 'read again only after each change')
})

t.test('concurrent checks share one read of the log and of the user', async (t) => {
  const { reads, status } = fixture()
  const answers = await Promise.all(Array.from({ length: 10 }, () => status.isInactive(ALICE)))
  t.same(answers, Array(10).fill(false))
  t.equal(reads.users, 1)
  t.ok(reads.heads <= 2, `log head read ${reads.heads} times for 10 concurrent checks`)
})

t.test('a failed read is not remembered', async (t) => {
  let fail = true
  const status = cachingActorStatus(
    async () => {
      if (fail) throw new Error('store down')
      return { corpUserStatus: { status: 'SUSPENDED' } }
    },
    { head: async () => 0, changes: async () => [] },
  )
  await t.rejects(status.isInactive(ALICE), /store down/)
  fail = false
  t.equal(await status.isInactive(ALICE), true, 'the next check reads again')
})
