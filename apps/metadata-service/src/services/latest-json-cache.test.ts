import type { ChangeLogEntry, StoredAspect } from '@catalog/core'
import type { StoredAspectJson } from '@catalog/store'
import t from 'tap'
import { LatestJsonCache, type LatestJsonSource } from './latest-json-cache.js'

const A = 'urn:li:corpuser:a'
const B = 'urn:li:corpuser:b'

/** A store of latest rows with a change log, counting the reads of rows. */
function fakeStore() {
  const rows = new Map<string, StoredAspectJson[]>()
  const log: ChangeLogEntry[] = []
  let reads = 0
  let afterRead: (() => Promise<void>) | undefined
  const row = (aspect: string, value: unknown): StoredAspectJson => ({
    aspect,
    version: 0,
    valueJson: JSON.stringify(value),
    created: { time: 1, actor: A },
    systemMetadataJson: null,
  })
  const source: LatestJsonSource = {
    latest: async () => new Map<string, StoredAspect[]>(),
    latestJson: async (urns) => {
      reads++
      const found = new Map(urns.map((u) => [u, [...(rows.get(u) ?? [])]]))
      await afterRead?.()
      return found
    },
    head: async () => log.at(-1)?.seq ?? 0,
    changes: async (after, limit) => log.filter((e) => e.seq > after).slice(0, limit),
  }
  return {
    source,
    reads: () => reads,
    /** Runs `f` after the next read took its rows and before it returns them. */
    afterNextRead: (f: () => Promise<void>) => {
      afterRead = async () => {
        afterRead = undefined
        await f()
      }
    },
    /** Stores a row and appends its change-log entry, as a write does in one transaction. */
    write(urn: string, aspect: string, value: unknown) {
      rows.set(urn, [...(rows.get(urn) ?? []).filter((r) => r.aspect !== aspect), row(aspect, value)])
      log.push({
        seq: log.length + 1,
        urn,
        entityType: 'corpuser',
        aspect,
        change: 'UPSERT',
        created: { time: 1, actor: A },
      })
    },
    /** Empties the log, as a restored older store would be. */
    truncateLog() {
      log.length = 0
    },
  }
}

const values = (map: Map<string, readonly StoredAspectJson[]>, urn: string) =>
  (map.get(urn) ?? []).map((r) => `${r.aspect}=${r.valueJson}`)

t.test('answers from memory until the change log shows the entity written', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  store.write(B, 'corpUserInfo', { n: 1 })
  const cache = new LatestJsonCache(store.source)
  t.same(values(await cache.latestJson([A, B]), A), ['corpUserInfo={"n":1}'])
  t.equal(store.reads(), 1)
  t.same(values(await cache.latestJson([A]), A), ['corpUserInfo={"n":1}'])
  t.equal(store.reads(), 1, 'a second read is answered from memory')

  store.write(A, 'corpUserInfo', { n: 2 })
  t.same(values(await cache.latestJson([A]), A), ['corpUserInfo={"n":2}'], 'the write is seen at once')
  t.equal(store.reads(), 2)
  t.same(values(await cache.latestJson([B]), B), ['corpUserInfo={"n":1}'])
  t.equal(store.reads(), 2, 'an entity not written stays remembered')

  t.same(values(await cache.latestJson([A], ['status']), A), [], 'filtered by aspect names')
  store.write(A, 'status', { removed: true })
  t.same(values(await cache.latestJson([A], ['status']), A), ['status={"removed":true}'])
})

t.test('a log that went back drops everything', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  const cache = new LatestJsonCache(store.source)
  await cache.latestJson([A])
  store.truncateLog()
  await cache.latestJson([A])
  t.equal(store.reads(), 2, 'read again from the store')
})

t.test('rows read while the log moved on are answered but not remembered', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  const cache = new LatestJsonCache(store.source)
  await cache.latestJson([B])
  // A is written after this read took its rows, and another request applies that entry
  // before this read returns: the old rows must not be remembered over the new write.
  store.afterNextRead(async () => {
    store.write(A, 'corpUserInfo', { n: 2 })
    await cache.latestJson([B])
  })
  t.same(values(await cache.latestJson([A]), A), ['corpUserInfo={"n":1}'], 'the read answers what it read')
  t.same(values(await cache.latestJson([A]), A), ['corpUserInfo={"n":2}'], 'the next read sees the write')
})

t.test('entities beyond the memory budget are forgotten oldest first', async (t) => {
  const store = fakeStore()
  const urns = Array.from({ length: 20 }, (_, i) => `urn:li:corpuser:u${String(i).padStart(2, '0')}`)
  for (const urn of urns) store.write(urn, 'corpUserInfo', { text: 'x'.repeat(100) })
  // About 200 characters each: 16 fit in the budget.
  const cache = new LatestJsonCache(store.source, 16 * 200)
  for (const urn of urns) await cache.latestJson([urn])
  t.equal(store.reads(), 20)
  await cache.latestJson([urns[19] as string])
  t.equal(store.reads(), 20, 'the newest is remembered')
  await cache.latestJson([urns[0] as string])
  t.equal(store.reads(), 21, 'the oldest was dropped to make room')
})

t.test('latestOne: the same rows and the same memory as a read of one URN', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  const cache = new LatestJsonCache(store.source)
  const first = await cache.latestOne(A)
  t.same(
    first.map((r) => r.valueJson),
    ['{"n":1}'],
  )
  t.equal(await cache.latestOne(A), first, 'the remembered list itself, without a read')
  t.equal((await cache.latestJson([A])).get(A), first, 'shared with batch reads')
  t.equal(store.reads(), 1)
  store.write(A, 'corpUserInfo', { n: 2 })
  t.same(
    (await cache.latestOne(A)).map((r) => r.valueJson),
    ['{"n":2}'],
    'a write is seen at once',
  )
  t.same(await cache.latestOne(B), [], 'an entity without rows has none')
  // A read overtaken by a write answers what it read and is not remembered.
  const C = 'urn:li:corpuser:c'
  store.afterNextRead(async () => {
    store.write(C, 'corpUserInfo', { n: 1 })
    await cache.latestOne(A)
  })
  t.same(await cache.latestOne(C), [], 'the read answers what it read')
  t.same(
    (await cache.latestOne(C)).map((r) => r.valueJson),
    ['{"n":1}'],
    'the next read sees the write',
  )
})
