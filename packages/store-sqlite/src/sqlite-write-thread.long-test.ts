import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { canonicalJson } from '@catalog/core'
import type { UpsertAspect, WriteBatch } from '@catalog/store'
import { runStoreContract } from '@catalog/store/contract'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-thread-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
let current = ''

// Every write a thread can take (all but patches and rollbacks) goes through the writer thread.
runStoreContract(t, 'sqlite (writer thread)', {
  async open() {
    current = join(dir, `store-${n++}.db`)
    return new SqliteMetadataStore({ file: current, largeWriteWeight: 0 })
  },
  async reopen() {
    return new SqliteMetadataStore({ file: current, largeWriteWeight: 0 })
  },
})

const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`

/** A schema of `n` fields, each tagged: about 100 characters and 2 edges a field. */
function wideSchema(name: string, n: number): UpsertAspect {
  const fields = Array.from({ length: n }, (_, i) => ({
    fieldPath: `column_${i}`,
    description: `the description of column ${i}`,
    globalTags: { tags: [{ tag: `urn:li:tag:t${i}` }] },
    glossaryTerms: { terms: [{ urn: `urn:li:glossaryTerm:g${i}` }] },
  }))
  const value = { schemaName: name, fields }
  return {
    kind: 'upsert',
    urn: urn(name),
    entityType: 'dataset',
    aspect: 'schemaMetadata',
    value,
    valueJson: canonicalJson(value),
    created,
    edges: fields.flatMap((f, i) => [
      { type: 'SchemaFieldTaggedWith', destination: f.globalTags.tags[0]?.tag ?? '' },
      { type: 'SchemaFieldWithGlossaryTerm', destination: `urn:li:glossaryTerm:g${i}` },
    ]),
  }
}

const batch = (...mutations: UpsertAspect[]): WriteBatch => ({ mutations, created })

/** The longest the event loop went without running a 1 ms interval while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now()
  let worst = 0
  const timer = setInterval(() => {
    const now = performance.now()
    worst = Math.max(worst, now - last)
    last = now
  }, 1)
  try {
    await work()
  } finally {
    clearInterval(timer)
  }
  return Math.max(worst, performance.now() - last)
}

t.test('sqlite: a large write commits on the writer thread while the event loop runs', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'large.db'), durability: 'normal' })
  const inline = new SqliteMetadataStore({
    file: join(dir, 'inline.db'),
    durability: 'normal',
    writerThread: false,
  })
  t.teardown(() => Promise.all([store.close(), inline.close()]))
  // A first large write starts the thread; the measured ones follow.
  await store.write(batch(wideSchema('warm', 20_000)))
  const measure = async (target: SqliteMetadataStore, name: string) => {
    const m = wideSchema(name, 20_000)
    const b = batch(m)
    return longestStall(() => target.write(b))
  }
  // Against the same write committed on the event loop in the same run: the machine is shared,
  // so absolute times are noisy; one slow try is retried once.
  let threaded = await measure(store, 'wide1')
  let onLoop = await measure(inline, 'wide1')
  if (threaded * 4 >= onLoop) {
    threaded = await measure(store, 'wide2')
    onLoop = await measure(inline, 'wide2')
  }
  t.ok(
    threaded * 4 < onLoop,
    `the event loop stalled at most ${threaded.toFixed(0)} ms, under a quarter of the ${onLoop.toFixed(0)} ms on the loop`,
  )
  const stored = (await store.latest([urn('wide1')])).get(urn('wide1'))?.[0]
  t.equal((stored?.value.fields as unknown[] | undefined)?.length, 20_000, 'the value is stored whole')
  const edges = await store.relationships({
    urn: 'urn:li:tag:t19999',
    direction: 'INCOMING',
    types: ['SchemaFieldTaggedWith'],
    start: 0,
    count: 10,
  })
  t.ok(
    edges.relationships.some((r) => r.entity === urn('wide1')),
    'its edges are written and read on the event loop connection',
  )
})

t.test('sqlite: writes behind a large one wait for it and commit in order', async (t) => {
  const store = new SqliteMetadataStore({ file: join(dir, 'order.db'), durability: 'normal' })
  t.teardown(() => store.close())
  const small = (name: string): UpsertAspect => ({
    kind: 'upsert',
    urn: urn(name),
    entityType: 'dataset',
    aspect: 'status',
    value: { removed: false },
    created,
    edges: [],
  })
  const settled: string[] = []
  const note = (name: string) => (outcome: { seq: number }) => {
    settled.push(name)
    return outcome.seq
  }
  const large = store.write(batch(wideSchema('big', 5_000))).then(note('big'))
  const after = store.write(batch(small('after'))).then(note('after'))
  const [bigSeq, afterSeq] = await Promise.all([large, after])
  t.same(settled, ['big', 'after'], 'acknowledged in the order written')
  t.ok(afterSeq > bigSeq, `the later write has the later change-log position (${bigSeq} < ${afterSeq})`)
  await t.rejects(
    store.write({
      ...batch(wideSchema('big', 5_000)),
      mutations: [{ ...wideSchema('big', 5_000), precondition: { require: 'aspect-absent' } }],
    }),
    { name: 'ValidationError', message: /Cannot perform CREATE since the aspect already exists/ },
    'a write the thread refuses keeps its domain error',
  )
})

t.test('sqlite: with full durability a large write is acknowledged after the WAL sync', async (t) => {
  const syncs: Array<(err: Error | null) => void> = []
  const store = new SqliteMetadataStore({
    file: join(dir, 'synced-large.db'),
    syncWal: (_fd, done) => syncs.push(done),
  })
  t.teardown(() => store.close())
  let acknowledged = false
  const write = store.write(batch(wideSchema('synced', 5_000))).then(() => {
    acknowledged = true
  })
  for (let i = 0; i < 1000 && syncs.length === 0; i++) await new Promise((r) => setTimeout(r, 10))
  t.equal(syncs.length, 1, 'the committed write asked for a sync of the WAL')
  t.equal(acknowledged, false, 'and is not acknowledged before it completes')
  syncs[0]?.(null)
  await write
  t.equal(acknowledged, true, 'acknowledged once synced')
})

t.test('sqlite: close waits for the writer thread; the write survives a reopen', async (t) => {
  const file = join(dir, 'closing.db')
  const store = new SqliteMetadataStore({ file, durability: 'normal' })
  const write = store.write(batch(wideSchema('closing', 5_000)))
  await store.close()
  t.equal((await write).results[0]?.changed, true, 'the write in flight was committed and acknowledged')
  await t.rejects(store.write(batch(wideSchema('late', 5_000))), /the metadata store is closed/)
  const reopened = new SqliteMetadataStore({ file, durability: 'normal' })
  t.teardown(() => reopened.close())
  const stored = (await reopened.latest([urn('closing')])).get(urn('closing'))?.[0]
  t.equal((stored?.value.fields as unknown[] | undefined)?.length, 5_000, 'read back after reopening')
})
