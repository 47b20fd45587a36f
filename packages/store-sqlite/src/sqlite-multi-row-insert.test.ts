import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EntityDefaults, Mutation, UpsertAspect, WriteBatch } from '@catalog/store'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'store-change-log-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const created = { time: 7, actor: 'urn:li:corpuser:datahub' }
const user = (i: number) => `urn:li:corpuser:u${i}`

/** An upsert of user `i`'s `status`; with `defaults`, the user is new and gets its key aspect first. */
function status(i: number, removed = false): UpsertAspect {
  return {
    kind: 'upsert',
    urn: user(i),
    entityType: 'corpuser',
    aspect: 'status',
    value: { removed },
    created,
    edges: [],
  }
}
const keyDefaults = (i: number): EntityDefaults => ({
  urn: user(i),
  entityType: 'corpuser',
  keyAspect: 'corpUserKey',
  aspects: [{ aspect: 'corpUserKey', value: { username: `u${i}` }, edges: [] }],
})

t.test('a batch of many rows logs each in order, at the positions its outcome reports', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'many.db') })
  t.teardown(() => store.close())
  // 150 new users: 300 change-log rows, more than one statement writes.
  const ids = Array.from({ length: 150 }, (_, i) => i)
  const batch: WriteBatch = {
    mutations: [...ids.map((i) => status(i)), { ...status(3, true) }],
    defaults: ids.map(keyDefaults),
    created,
  }
  const outcome = await store.write(batch)
  const log = await store.changes(0, 1000)
  t.equal(log.length, 301)
  t.equal(outcome.seq, log.at(-1)?.seq, 'the outcome names the last entry')
  t.same(
    log.map((e) => e.seq),
    log.map((_, k) => k + 1),
    'positions follow each other',
  )
  t.same(
    log.slice(0, 4).map((e) => [e.urn, e.aspect]),
    [
      [user(0), 'corpUserKey'],
      [user(0), 'status'],
      [user(1), 'corpUserKey'],
      [user(1), 'status'],
    ],
  )
  t.same(log.at(-1)?.value, { removed: true }, 'the last write of user 3 is logged last')
  const deleted = await store.write({
    mutations: [
      { kind: 'delete', urn: user(5), entityType: 'corpuser', aspect: 'status', created, isKeyAspect: false },
    ],
    created,
  })
  t.equal(deleted.seq, 302)
  t.equal((await store.changes(301, 10))[0]?.change, 'DELETE')
})

t.test('a refused call in a group logs nothing; the calls around it keep their entries', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'refused.db') })
  t.teardown(() => store.close())
  await store.write({ mutations: [status(1)], created })
  const refused: UpsertAspect = { ...status(1, true), precondition: { require: 'aspect-absent' } }
  const [before, bad, after] = await Promise.allSettled([
    store.write({ mutations: [status(2), status(3)], created }),
    store.write({ mutations: [status(4), refused], created }),
    store.write({ mutations: [status(5)], created }),
  ])
  t.equal(bad?.status, 'rejected')
  const log = await store.changes(0, 100)
  t.same(
    log.map((e) => e.urn),
    [user(1), user(2), user(3), user(5)],
  )
  t.same(
    log.map((e) => e.seq),
    [1, 2, 3, 4],
  )
  t.equal(before?.status === 'fulfilled' && before.value.seq, 3)
  t.equal(after?.status === 'fulfilled' && after.value.seq, 4)
  // A call that logs nothing reports the head as it stands.
  const same = await store.write({ mutations: [status(5)], created })
  t.equal(same.seq, 4)
})

t.test('aspect rows a batch queues for new entities are there for its later writes', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'fresh.db') })
  t.teardown(() => store.close())
  const patch: Mutation = {
    kind: 'patch',
    urn: user(2),
    entityType: 'corpuser',
    aspect: 'status',
    created,
    apply: (current) => ({ value: { removed: !(current?.removed as boolean) }, edges: [] }),
  }
  const outcome = await store.write({
    mutations: [
      status(1),
      // A second value for a row written (queued) just before: the first becomes version 1.
      status(1, true),
      status(2),
      patch,
      status(3),
      {
        kind: 'delete',
        urn: user(3),
        entityType: 'corpuser',
        aspect: 'corpUserKey',
        created,
        isKeyAspect: true,
      },
    ],
    defaults: [1, 2, 3].map(keyDefaults),
    created,
  })
  t.same(
    outcome.results.map((r) => r.changed),
    [true, true, true, true, true, true],
  )
  t.same((await store.version(user(1), 'status', 0))?.value, { removed: true })
  t.same((await store.version(user(1), 'status', 1))?.value, { removed: false })
  t.same(
    (await store.version(user(2), 'status', 0))?.value,
    { removed: true },
    'the patch read the queued row',
  )
  t.notOk(await store.exists(user(3), 'corpUserKey'), 'the entity deleted after its rows were queued is gone')
  t.same((await store.latest([user(3)])).get(user(3)) ?? [], [])
  t.ok(await store.exists(user(1), 'corpUserKey'))

  // CREATE of an aspect the same batch wrote (queued) just before is refused, and the batch with it.
  const create: UpsertAspect = { ...status(4, true), precondition: { require: 'aspect-absent' } }
  const refused = store.write({ mutations: [status(4), create], defaults: [keyDefaults(4)], created })
  await t.rejects(refused, /Cannot perform CREATE/)
  t.notOk(await store.exists(user(4), 'corpUserKey'), 'nothing of the refused batch is stored')
  t.equal((await store.changes(0, 100)).filter((e) => e.urn === user(4)).length, 0)
})
