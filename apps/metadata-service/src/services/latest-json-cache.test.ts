import type { ChangeLogEntry, StoredAspect } from '@catalog/core'
import type { StoredAspectJson } from '@catalog/store'
import t from 'tap'
import { LatestJsonCache, type LatestJsonSource } from './latest-json-cache.js'

const A = 'urn:li:corpuser:a'
const B = 'urn:li:corpuser:b'
const C = 'urn:li:corpuser:c'

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
  t.same(values(await cache.latestJson([A, B]), A), ['corpUserInfo={"n":1}'])
  t.equal(store.reads(), 2, 'an entity read once is not remembered: its second read reads again')
  t.same(values(await cache.latestJson([A]), A), ['corpUserInfo={"n":1}'])
  t.equal(store.reads(), 2, 'from the second read on it is answered from memory')

  store.write(A, 'corpUserInfo', { n: 2 })
  t.same(values(await cache.latestJson([A]), A), ['corpUserInfo={"n":2}'], 'the write is seen at once')
  t.equal(store.reads(), 3)
  t.same(values(await cache.latestJson([B]), B), ['corpUserInfo={"n":1}'])
  t.equal(store.reads(), 3, 'an entity not written stays remembered')

  t.same(values(await cache.latestJson([A], ['status']), A), [], 'filtered by aspect names')
  store.write(A, 'status', { removed: true })
  t.same(values(await cache.latestJson([A], ['status']), A), ['status={"removed":true}'])
})

t.test('a log that went back drops everything', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  const cache = new LatestJsonCache(store.source)
  await cache.latestJson([A])
  await cache.latestJson([A])
  await cache.latestJson([A])
  t.equal(store.reads(), 2, 'remembered')
  store.truncateLog()
  await cache.latestJson([A])
  t.equal(store.reads(), 3, 'read again from the store')
})

t.test('rows read while the log moved on are answered but not remembered', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  const cache = new LatestJsonCache(store.source)
  await cache.latestJson([B])
  // A read once: the next read would remember it.
  await cache.latestJson([A])
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
  for (const urn of urns) await cache.latestJson([urn])
  t.equal(store.reads(), 40, 'each read twice: remembered at the second')
  await cache.latestJson([urns[19] as string])
  t.equal(store.reads(), 40, 'the newest is remembered')
  await cache.latestJson([urns[0] as string])
  t.equal(store.reads(), 41, 'the oldest was dropped to make room')
})

t.test('an answer made from remembered rows is kept with them and counted in the budget', async (t) => {
  const store = fakeStore()
  const urns = Array.from({ length: 30 }, (_, i) => `urn:li:corpuser:u${String(i).padStart(2, '0')}`)
  for (const urn of urns) store.write(urn, 'corpUserInfo', { text: 'x'.repeat(100) })
  const cache = new LatestJsonCache(store.source, 16 * 400)
  let made = 0
  const answer = async (urn: string) => {
    const list = await cache.latestOne(urn)
    return cache.answer(urn, list, () => `${++made}:${list[0]?.valueJson}`)
  }
  const A0 = urns[0] as string
  const x = `{"text":"${'x'.repeat(100)}"}`
  t.equal(await answer(A0), `1:${x}`, 'made')
  t.equal(await answer(A0), `2:${x}`, 'rows read once are not remembered: made again')
  t.equal(await answer(A0), `2:${x}`, 'kept with the remembered rows')
  t.equal(store.reads(), 2)
  const unkept = await cache.latestOne(A0)
  t.equal(
    cache.answer(A0, unkept, () => 'other', false),
    `2:${x}`,
    'a kept answer is handed out',
  )
  t.equal(
    cache.answer(A0, [...unkept], () => 'other'),
    'other',
    'rows not handed out by the cache: made',
  )
  store.write(A0, 'corpUserInfo', { text: 'y' })
  t.equal(await answer(A0), '3:{"text":"y"}', 'a write drops the answer with its rows')
  // About 190 characters of rows and 115 of answer each: 20 entities fit, not 30.
  for (const urn of urns) await answer(urn)
  for (const urn of urns) await answer(urn)
  const reads = store.reads()
  await cache.latestOne(urns[29] as string)
  t.equal(store.reads(), reads, 'the newest is remembered')
  await cache.latestOne(urns[5] as string)
  t.equal(store.reads(), reads + 1, 'the answers counted: fewer entities fit than rows alone')
})

t.test('latestAspect reads one row of an entity read once, all of it when read again', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  store.write(A, 'status', { removed: false })
  const asked: Array<readonly string[] | undefined> = []
  const latestJson = store.source.latestJson?.bind(store.source)
  const source: LatestJsonSource = {
    ...store.source,
    latestJson: async (urns, aspects) => {
      asked.push(aspects)
      return (latestJson as NonNullable<typeof latestJson>)(urns, aspects)
    },
  }
  const cache = new LatestJsonCache(source)
  t.equal((await cache.latestAspect(A, 'status'))?.valueJson, '{"removed":false}')
  t.same(asked, [['status']], 'the first read asks for the one aspect')
  t.equal((await cache.latestAspect(A, 'corpUserInfo'))?.valueJson, '{"n":1}')
  t.same(asked, [['status'], undefined], 'the second reads every row and remembers them')
  t.equal((await cache.latestAspect(A, 'status'))?.valueJson, '{"removed":false}')
  t.equal(await cache.latestAspect(A, 'globalTags'), undefined, 'an absent aspect')
  t.equal(asked.length, 2, 'answered from memory')
  store.write(A, 'status', { removed: true })
  t.equal((await cache.latestAspect(A, 'status'))?.valueJson, '{"removed":true}', 'a write is seen at once')
})

t.test('latestOne: the same rows and the same memory as a read of one URN', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  const cache = new LatestJsonCache(store.source)
  t.same(
    (await cache.latestOne(A)).map((r) => r.valueJson),
    ['{"n":1}'],
  )
  const first = await cache.latestOne(A)
  t.equal(await cache.latestOne(A), first, 'the remembered list itself, without a read')
  t.equal((await cache.latestJson([A])).get(A), first, 'shared with batch reads')
  t.equal(store.reads(), 2)
  store.write(A, 'corpUserInfo', { n: 2 })
  t.same(
    (await cache.latestOne(A)).map((r) => r.valueJson),
    ['{"n":2}'],
    'a write is seen at once',
  )
  t.same(await cache.latestOne(B), [], 'an entity without rows has none')
  // A read overtaken by a write answers what it read and is not remembered.
  await cache.latestOne(C)
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

t.test('a first read of an entity reads its rows without the change log', async (t) => {
  const store = fakeStore()
  store.write(A, 'corpUserInfo', { n: 1 })
  let heads = 0
  const head = () => {
    heads++
    return store.source.head()
  }
  const cache = new LatestJsonCache({ ...store.source, head })
  await cache.latestOne(A)
  await cache.latestJson([B])
  await cache.latestAspect(C, 'status')
  t.equal(heads, 0, 'first reads (one URN, a batch, one aspect) do not read the log')
  await cache.latestOne(A)
  t.equal(heads, 1, 'a second read, whose rows are remembered, reads it first')
  store.write(A, 'corpUserInfo', { n: 2 })
  t.same(
    (await cache.latestOne(A)).map((r) => r.valueJson),
    ['{"n":2}'],
    'a write after the rows were remembered is seen',
  )
  t.equal(heads, 2)
  t.same(
    (await cache.latestJson([B, 'urn:li:corpuser:d'])).get(B),
    [],
    'a batch with one URN read before reads the log',
  )
  t.equal(heads, 3)
})
