import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OverloadedError, statusOf } from '@catalog/core'
import { runStoreContract } from '@catalog/store/contract'
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

t.test(
  'sqlite: writes beyond the pending limit are refused with OverloadedError, not queued without bound',
  async (t) => {
    const store = new SqliteMetadataStore({ file: join(dir, 'overload.db'), maxPendingWrites: 2 })
    t.teardown(() => store.close())
    const write = (i: number) =>
      store.write({
        mutations: [
          {
            kind: 'upsert',
            urn: `urn:li:corpuser:u${i}`,
            entityType: 'corpuser',
            aspect: 'status',
            value: { removed: false },
            created: { time: 1, actor: 'urn:li:corpuser:datahub' },
            edges: [],
          },
        ],
        created: { time: 1, actor: 'urn:li:corpuser:datahub' },
      })
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
  const store = new SqliteMetadataStore({ file: join(dir, 'groups.db'), maxPendingWrites: 1500 })
  t.teardown(() => store.close())
  const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
  const write = (i: number) =>
    store.write({
      mutations: [
        {
          kind: 'upsert',
          urn: `urn:li:corpuser:g${i}`,
          entityType: 'corpuser',
          aspect: 'status',
          value: { removed: false },
          created,
          edges: [],
        },
      ],
      created,
    })
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
