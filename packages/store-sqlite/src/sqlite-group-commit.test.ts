import { fsync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import { SqliteMetadataStore } from './sqlite-store.js'

const dir = mkdtempSync(join(tmpdir(), 'store-sqlite-group-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const created = { time: 1, actor: 'urn:li:corpuser:datahub' }
const turn = () => new Promise((resolve) => setImmediate(resolve))

t.test('sqlite: writes that come while a commit is synced are committed together after it', async (t) => {
  const syncs: Array<() => void> = []
  const store = new SqliteMetadataStore({
    file: join(dir, 'group.db'),
    // Each sync waits until the test lets it finish.
    syncWal: (fd, done) => syncs.push(() => fsync(fd, done)),
  })
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
          created,
          edges: [],
        },
      ],
      created,
    })
  const first = write(0)
  while (syncs.length === 0) await turn()
  // Ten writes, each in an event-loop turn of its own, while the first commit's sync is pending.
  const later: Array<Promise<unknown>> = []
  for (let i = 1; i <= 10; i++) {
    later.push(write(i))
    await turn()
  }
  t.equal(syncs.length, 1, 'nothing more is committed while the sync runs')
  syncs.shift()?.()
  await first
  while (syncs.length === 0) await turn()
  t.equal(syncs.length, 1, 'the ten are one commit, synced once')
  syncs.shift()?.()
  const outcomes = (await Promise.all(later)) as Array<{ seq: number }>
  t.same(
    outcomes.map((o) => o.seq),
    Array.from({ length: 10 }, (_, i) => i + 2),
    'each acknowledged with its own change-log position',
  )
  t.equal((await store.latest(['urn:li:corpuser:u10'])).get('urn:li:corpuser:u10')?.length, 1)
})
