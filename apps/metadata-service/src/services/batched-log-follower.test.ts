import type { ChangeLogEntry } from '@catalog/core'
import t from 'tap'
import { batchedLogFollower } from './batched-log-follower.js'

function fakeLog() {
  const entries: ChangeLogEntry[] = []
  let heads = 0
  let failing = false
  return {
    log: {
      head: async () => {
        heads++
        if (failing) throw new Error('store gone')
        return entries.at(-1)?.seq ?? 0
      },
      changes: async (after: number, limit: number) => entries.filter((e) => e.seq > after).slice(0, limit),
    },
    heads: () => heads,
    fail: (on: boolean) => {
      failing = on
    },
    write(urn: string) {
      entries.push({
        seq: entries.length + 1,
        urn,
        entityType: 'corpuser',
        aspect: 'status',
        change: 'UPSERT',
        created: { time: 1, actor: urn },
      })
    },
  }
}

t.test('one read of the head per turn, for every request that asked in it', async (t) => {
  const store = fakeLog()
  const applied: string[] = []
  let resets = 0
  const refresh = batchedLogFollower(
    store.log,
    (e) => applied.push(e.urn),
    () => resets++,
  )
  await Promise.all([refresh(), refresh(), refresh()])
  t.equal(store.heads(), 1, 'three callers of one turn share one read')
  t.equal(resets, 1, 'the first refresh starts from a clean slate')

  store.write('urn:li:corpuser:a')
  await refresh()
  t.same(applied, ['urn:li:corpuser:a'], 'a write made before the call is applied before it resolves')
  t.equal(store.heads(), 2)

  // A caller of a later turn is never answered by a read of the head taken before it asked.
  const first = refresh()
  await new Promise((r) => setImmediate(r))
  store.write('urn:li:corpuser:b')
  await Promise.all([first, refresh()])
  t.same(applied, ['urn:li:corpuser:a', 'urn:li:corpuser:b'])
  t.equal(store.heads(), 4, 'the later caller read the head again')
})

t.test('a failed read fails its callers, and the next refresh starts from a clean slate', async (t) => {
  const store = fakeLog()
  let resets = 0
  const refresh = batchedLogFollower(
    store.log,
    () => {},
    () => resets++,
  )
  await refresh()
  store.fail(true)
  await t.rejects(Promise.all([refresh(), refresh()]), /store gone/)
  store.fail(false)
  await refresh()
  t.equal(resets, 2, 'reset again after the failure')
})
