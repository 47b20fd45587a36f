import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'
import { WAL_CHECKPOINT_BYTES, WalCheckpointer } from './sqlite-wal-checkpointer.js'
import type { CheckpointResult } from './sqlite-write-wire.js'

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-wal-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const MB = 1024 * 1024
const DONE: CheckpointResult = { busy: 0, log: 10, checkpointed: 10 }

t.test('checkpointer: takes over once the thread is up, one checkpoint at a time', async (t) => {
  let bytes = 0
  let up = false
  let calls = 0
  const events: string[] = []
  let finish: (() => void) | undefined
  const checkpointer = new WalCheckpointer({
    offLoop: () => {
      calls++
      return new Promise((resolve) => (finish = () => resolve(DONE)))
    },
    ready: () => up,
    takeOver: () => events.push('takeOver'),
    giveBack: () => events.push('giveBack'),
    walBytes: () => bytes,
  })
  bytes = 8 * MB
  checkpointer.committed()
  t.same([calls, events], [0, []], 'SQLite keeps checkpointing until the thread is up')
  up = true
  bytes = 1 * MB
  checkpointer.committed()
  t.same([calls, events], [0, ['takeOver']], 'taken over; nothing to do while the WAL is short')
  bytes = WAL_CHECKPOINT_BYTES + 4096
  checkpointer.committed()
  t.equal(calls, 1, 'one once the WAL grew past the limit')
  for (let i = 0; i < 100; i++) checkpointer.committed()
  t.equal(calls, 1, 'none more while it runs')
  finish?.()
  await checkpointer.idle()
  checkpointer.committed()
  t.equal(calls, 2, 'the next at the next commit while the WAL is still long')
  finish?.()
  await checkpointer.idle()
  up = false
  checkpointer.committed()
  t.same(events, ['takeOver', 'giveBack'], 'given back when the thread stops')
})

t.test('checkpointer: a failing checkpoint gives checkpoints back to SQLite for good', async (t) => {
  let calls = 0
  const events: string[] = []
  const checkpointer = new WalCheckpointer({
    offLoop: async () => {
      calls++
      throw new Error('thread gone')
    },
    ready: () => true,
    takeOver: () => events.push('takeOver'),
    giveBack: () => events.push('giveBack'),
    walBytes: () => 8 * MB,
  })
  checkpointer.committed()
  await checkpointer.idle()
  for (let i = 0; i < 100; i++) checkpointer.committed()
  await checkpointer.idle()
  t.equal(calls, 1)
  t.same(events, ['takeOver', 'giveBack'])
})

t.test('sqlite: the WAL stays short with checkpoints on the writer thread, every write kept', async (t) => {
  const file = join(dir, 'wal.db')
  const store = new SqliteMetadataStore({ file })
  // Up before the first write, so that every checkpoint is the writer thread's.
  await store.warmWriterThread()
  const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
  const description = 'x'.repeat(2_000)
  const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,wal_${i},PROD)`
  // About 40 MB of aspect rows and change-log entries: four times the bound checked below.
  const writes = 10_000
  let next = 0
  let largestWal = 0
  const writer = async () => {
    while (next < writes) {
      const i = next++
      await store.write({
        mutations: [
          {
            kind: 'upsert',
            urn: urn(i),
            entityType: 'dataset',
            aspect: 'datasetProperties',
            value: { description: `${i} ${description}` },
            created,
            edges: [],
          },
        ],
        created,
      })
      if (i % 500 === 0) largestWal = Math.max(largestWal, statSync(`${file}-wal`).size)
    }
  }
  await Promise.all(Array.from({ length: 16 }, writer))
  t.ok(largestWal < 10 * MB, `the WAL stayed under 10 MB (largest seen ${(largestWal / MB).toFixed(1)} MB)`)
  await store.close()

  const db = new Database(file, { readonly: true })
  t.teardown(() => db.close())
  t.equal(
    db.prepare("SELECT count(*) FROM aspect_rows WHERE aspect = 'datasetProperties'").pluck().get(),
    writes,
    'every write is in the file',
  )
  t.same(db.pragma('integrity_check', { simple: true }), 'ok')
})
