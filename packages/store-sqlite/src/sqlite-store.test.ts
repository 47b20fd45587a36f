import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OverloadedError, statusOf } from '@catalog/core'
import type { WriteBatch } from '@catalog/store'
import { runStoreContract } from '@catalog/store/contract'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
let current = ''

runStoreContract(t, 'sqlite', {
  async open() {
    current = join(dir, `store-${n++}.db`)
    return new SqliteMetadataStore({ file: current })
  },
  async reopen() {
    return new SqliteMetadataStore({ file: current })
  },
})

/** One write of a user's `status` aspect (`urn:li:corpuser:<name>`) to `store`. */
function writeStatus(store: SqliteMetadataStore, name: string) {
  const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
  return store.write({
    mutations: [
      {
        kind: 'upsert',
        urn: `urn:li:corpuser:${name}`,
        entityType: 'corpuser',
        aspect: 'status',
        value: { removed: false },
        created,
        edges: [],
      },
    ],
    created,
  })
}

t.test(
  'sqlite: writes beyond the pending limit are refused with OverloadedError, not queued without bound',
  async (t) => {
    const store = new SqliteMetadataStore({ file: join(dir, 'overload.db'), maxPendingWrites: 2 })
    t.teardown(() => store.close())
    const write = (i: number) => writeStatus(store, `u${i}`)
    const results = await Promise.allSettled([0, 1, 2, 3].map(write))
    t.same(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'rejected', 'rejected'],
    )
    const rejected = results[2] as PromiseRejectedResult
    t.ok(rejected.reason instanceof OverloadedError)
    t.equal(statusOf(rejected.reason), 429)
    t.equal((await write(9)).results[0]?.changed, true, 'accepted again once the queue drained')
  },
)

t.test('sqlite: one turn commits a bounded group; the rest waits and counts towards the limit', async (t) => {
  const store = new SqliteMetadataStore({
    file: join(dir, 'groups.db'),
    maxPendingWrites: 1500,
    // acknowledged at commit, so the group a turn commits is what the test counts
    durability: 'normal',
  })
  t.teardown(() => store.close())
  const write = (i: number) => writeStatus(store, `g${i}`)
  let done = 0
  const first = Array.from({ length: 1500 }, (_, i) => write(i).then(() => done++))
  await new Promise((resolve) => setImmediate(resolve))
  t.ok(done > 0 && done < 1500, `the first turn committed part of the queue (${done} of 1500)`)
  const more = await Promise.allSettled(Array.from({ length: 1500 }, (_, i) => write(10_000 + i)))
  t.ok(
    more.some((r) => r.status === 'rejected' && r.reason instanceof OverloadedError),
    'writes still waiting from an earlier turn count towards the limit',
  )
  await Promise.all(first)
  t.equal(done, 1500, 'every accepted write is committed')
})

/** Waits (up to 10 s, in 10 ms steps) until `done()` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10))
}

t.test(
  'sqlite: with full durability a write is acknowledged only after the WAL is synced, off the loop',
  async (t) => {
    const syncs: Array<{ fd: number; done: (err: Error | null) => void }> = []
    const file = join(dir, 'synced.db')
    const store = new SqliteMetadataStore({ file, syncWal: (fd, done) => syncs.push({ fd, done }) })
    t.teardown(() => store.close())
    const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
    const write = (i: number) => writeStatus(store, `s${i}`)
    let acknowledged = false
    const first = write(1).then((outcome) => {
      acknowledged = true
      return outcome
    })
    // Polled, not a fixed wait: on a busy machine a short timer can fire before the commit's turn.
    await until(() => syncs.length > 0)
    t.equal(syncs.length, 1, 'the committed group asked for one sync of the WAL')
    t.equal(acknowledged, false, 'and is not acknowledged before the sync completes')
    t.ok(
      (await store.latest(['urn:li:corpuser:s1'])).get('urn:li:corpuser:s1')?.length,
      'the event loop kept serving reads',
    )
    syncs[0]?.done(null)
    t.equal((await first).results[0]?.changed, true, 'acknowledged once synced')

    const second = write(2)
    await until(() => syncs.length > 1)
    syncs[1]?.done(new Error('EIO: disk gone'))
    await t.rejects(second, /metadata store sync failed: EIO: disk gone/, 'a failed sync refuses the write')

    const normal = new SqliteMetadataStore({
      file: join(dir, 'normal.db'),
      durability: 'normal',
      syncWal: () => t.fail('durability normal never syncs'),
    })
    t.teardown(() => normal.close())
    await normal.write({
      mutations: [
        {
          kind: 'upsert',
          urn: 'urn:li:corpuser:n',
          entityType: 'corpuser',
          aspect: 'status',
          value: { removed: false },
          created,
          edges: [],
        },
      ],
      created,
    })
    t.pass('durability normal acknowledges at commit')
  },
)

t.test(
  'sqlite: a large latest value is read as bytes on the writer thread, into shared memory',
  async (t) => {
    const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,bytes,PROD)'
    const value = (description: string) => ({
      kind: 'upsert' as const,
      urn,
      entityType: 'dataset',
      aspect: 'datasetProperties',
      value: { description },
      created,
      edges: [],
    })
    for (const writerThread of [true, false]) {
      const store = new SqliteMetadataStore({ file: join(dir, `bytes-${writerThread}.db`), writerThread })
      t.teardown(() => store.close())
      await store.write({ mutations: [value('x'.repeat(300_000))], created })
      await store.write({ mutations: [{ ...value('small'), aspect: 'editableDatasetProperties' }], created })
      const [large, small, absent] = await store.latestAspectUtf8([
        { urn, aspect: 'datasetProperties' },
        { urn, aspect: 'editableDatasetProperties' },
        { urn, aspect: 'status' },
      ])
      t.equal(
        large?.buffer instanceof SharedArrayBuffer,
        writerThread,
        `writer thread ${writerThread}: shared`,
      )
      t.equal(new TextDecoder().decode(large), JSON.stringify({ description: 'x'.repeat(300_000) }))
      t.equal(new TextDecoder().decode(small), '{"description":"small"}')
      t.equal(absent, undefined)
    }
  },
)

t.test(
  'sqlite: a bucket stored before its granularity was in the key is replaced by its rewrite',
  async (t) => {
    const file = join(dir, 'legacy-bucket.db')
    const store = new SqliteMetadataStore({ file })
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,legacy,PROD)'
    const value = (n: number) => ({
      timestampMillis: 100,
      eventGranularity: { unit: 'DAY', multiple: 1 },
      totalSqlQueries: n,
    })
    const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
    const bucket = (n: number): WriteBatch => ({
      mutations: [
        {
          kind: 'timeseries',
          row: {
            urn,
            entityType: 'dataset',
            aspect: 'datasetUsageStatistics',
            timestampMillis: 100,
            value: value(n),
          },
        },
      ],
      created,
    })
    await store.write(bucket(1))
    await store.close()
    // As the layouts before kept it: the partition alone as the key.
    const db = new Database(file)
    db.prepare("UPDATE timeseries SET partition_key = '' WHERE urn = ?").run(urn)
    db.close()
    const reopened = new SqliteMetadataStore({ file })
    t.teardown(() => reopened.close())
    await reopened.write(bucket(2))
    const rows = await reopened.timeseries({
      urn,
      entityType: 'dataset',
      aspect: 'datasetUsageStatistics',
      limit: 10,
    })
    t.same(
      rows.map((r) => r.value.totalSqlQueries),
      [2],
      'one value, not two',
    )
  },
)
