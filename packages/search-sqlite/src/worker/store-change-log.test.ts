import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChangeLogEntry } from '@catalog/core'
import { ContractFixture } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { StoreChangeLog } from './store-change-log.js'
import { WorkerSearchIndex } from './worker-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-store-log-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0

/**
 * A store file with the embedded store's `change_log` table (the columns the reader reads, as
 * packages/store-sqlite/src/schema.ts declares them), in WAL mode as the store keeps it, with a
 * writer that appends entries as the store's writes do (the end-to-end tests run the reader
 * against the real store).
 */
function storeFile() {
  const file = join(dir, `metadata-${n++}.db`)
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.exec(`CREATE TABLE change_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, urn TEXT NOT NULL, entity_type TEXT NOT NULL,
    aspect TEXT NOT NULL, change TEXT NOT NULL, value TEXT, entity_deleted INTEGER NOT NULL DEFAULT 0,
    created_on INTEGER NOT NULL, created_by TEXT NOT NULL, system_metadata TEXT)`)
  const insert = db.prepare(
    `INSERT INTO change_log (urn, entity_type, aspect, change, value, entity_deleted, created_on, created_by, system_metadata)
     VALUES (?, ?, ?, ?, ?, ?, 1764140000123, 'urn:li:corpuser:datahub', '{"runId":"r"}')`,
  )
  const write = (entries: readonly ChangeLogEntry[]) =>
    db.transaction(() => {
      for (const e of entries)
        insert.run(
          e.urn,
          e.entityType,
          e.aspect,
          e.change,
          e.value === undefined ? null : JSON.stringify(e.value),
          e.entityDeleted ? 1 : 0,
        )
    })()
  t.teardown(() => db.close())
  return { file, write }
}

/** An entry as the reader gives it: without the members deriving documents never reads. */
const fed = (entries: readonly ChangeLogEntry[]) =>
  entries.map(({ created: _created, systemMetadata: _systemMetadata, ...rest }) => rest)

const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`

t.test('reads the store log after a position: in order, at most limit, values parsed', async (t) => {
  const fx = new ContractFixture()
  const store = storeFile()
  const entries = [
    ...fx.dataset('orders "quoted" é 😀', { datasetProperties: { description: 'a\u2028b\u0001' } }),
    {
      ...fx.dataset('orders "quoted" é 😀', {})[0],
      aspect: 'datasetKey',
      change: 'DELETE',
      value: undefined,
      entityDeleted: true,
    } as ChangeLogEntry,
  ].map((e, i) => ({ ...e, seq: i + 1 }))
  store.write(entries)
  const log = new StoreChangeLog(store.file)
  t.teardown(() => log.close())
  t.same(log.read(0, 100), fed(entries).map(withoutUndefined), 'every entry, as the store wrote it')
  t.same(
    log.read(1, 2).map((e) => e.seq),
    [2, 3],
    'after the position, at most limit',
  )
  t.same(log.read(entries.length, 100), [], 'nothing after the head')
  const last = log.read(entries.length - 1, 1)[0]
  t.equal(last?.entityDeleted, true, 'an entity delete says so')
  t.notOk(last && 'value' in last, 'a delete has no value')
})

t.test('a page ends before the values pass its characters, never before its first entry', async (t) => {
  const fx = new ContractFixture()
  const store = storeFile()
  const big = 'x'.repeat(4000)
  const entries = ['a', 'b', 'c'].flatMap((name) =>
    fx
      .dataset(name, { datasetProperties: { description: big } })
      .filter((e) => e.aspect === 'datasetProperties'),
  )
  store.write(entries.map((e, i) => ({ ...e, seq: i + 1 })))
  const log = new StoreChangeLog(store.file, 5000)
  t.teardown(() => log.close())
  t.same(
    log.read(0, 100).map((e) => e.seq),
    [1],
    'one entry: the second would pass 5,000 characters',
  )
  const tiny = new StoreChangeLog(store.file, 10)
  t.teardown(() => tiny.close())
  t.same(
    tiny.read(1, 100).map((e) => e.seq),
    [2],
    'a first entry larger than the bound still comes',
  )
})

t.test('a missing store file is a clear error, and no file is made', async (t) => {
  const file = join(dir, 'no-store.db')
  t.throws(() => new StoreChangeLog(file), /cannot read the metadata store's change log at .*no-store\.db/)
  const index = await WorkerSearchIndex.open({ file: join(dir, `search-${n++}.db`), warmup: false })
  t.teardown(() => index.close())
  await t.rejects(
    index.applyStoreLog(file, 1000),
    { name: 'UnavailableError' },
    'the same error from the worker',
  )
  t.equal(await index.cursor(), 0, 'nothing applied')
  t.notOk(existsSync(file), 'no store file was made')
})

t.test('applyStoreLog: the worker reads the store log itself and indexes it like applyLog', async (t) => {
  const fx = new ContractFixture()
  const store = storeFile()
  const entries = [
    ...fx.dataset('orders', { datasetProperties: { description: 'daily orders' }, globalTags: { tags: [] } }),
    ...fx.dataset('customers', { datasetProperties: { description: 'all customers' } }),
  ].map((e, i) => ({ ...e, seq: i + 1 }))
  store.write(entries)
  const fromStore = await WorkerSearchIndex.open({ file: join(dir, `search-${n++}.db`), warmup: false })
  const fromText = await WorkerSearchIndex.open({ file: join(dir, `search-${n++}.db`), warmup: false })
  t.teardown(async () => {
    await fromStore.close()
    await fromText.close()
  })
  const first = await fromStore.applyStoreLog(store.file, 3)
  t.same([first.entries, first.cursor], [3, 3], 'a page of at most limit entries')
  const rest = await fromStore.applyStoreLog(store.file, 1000)
  t.same([rest.entries, rest.cursor], [entries.length - 3, entries.length], 'then the rest')
  t.same(
    await fromStore.applyStoreLog(store.file, 1000),
    { entries: 0, documentsChanged: 0, cursor: entries.length },
    'then nothing: the index has the whole log',
  )
  t.equal(await fromStore.cursor(), entries.length, 'the cursor is durable')
  await fromText.applyLog(JSON.stringify(entries))
  for (const name of ['orders', 'customers'])
    t.same(
      await fromStore.document(urnOf(name)),
      await fromText.document(urnOf(name)),
      `${name}: the same document`,
    )

  // A write committed by the store's connection after the worker's last read is seen by its next.
  store.write(fx.dataset('late', { datasetProperties: { description: 'late arrival' } }).slice(0, 1))
  const late = await fromStore.applyStoreLog(store.file, 1000)
  t.same([late.entries, late.cursor], [1, entries.length + 1], 'the new entry')
  t.ok(await fromStore.document(urnOf('late')), 'and its document')
})

t.test(
  'applyStoreLog after a worker restart (a query over its budget) goes on from the cursor',
  async (t) => {
    const fx = new ContractFixture()
    const store = storeFile()
    const entries = Array.from({ length: 3000 }, (_, i) =>
      fx.dataset(`t_${i}`, { datasetProperties: { description: `orders line ${i}` } }),
    )
      .flat()
      .map((e, i) => ({ ...e, seq: i + 1 }))
    store.write(entries)
    const index = await WorkerSearchIndex.open({
      file: join(dir, `search-${n++}.db`),
      warmup: false,
      queryBudgetMs: 1,
      coldQueryBudgetMs: 1,
    })
    t.teardown(() => index.close())
    await index.applyStoreLog(store.file, 5000)
    const heavy = fx.requests.search({ input: '*', entityTypes: ['dataset'], start: 0, count: 3000 })
    const [over, next] = await Promise.allSettled([
      index.search(heavy),
      index.applyStoreLog(store.file, 100_000),
    ])
    t.equal(over.status, 'rejected', 'the query was cancelled and its worker replaced')
    t.same(
      next.status === 'fulfilled' && [next.value.entries, next.value.cursor],
      [entries.length - 5000, entries.length],
      'the new worker opened the store log and applied the rest',
    )
    t.equal((await index.stats()).documents, 3000)
  },
)

function withoutUndefined<T extends object>(entry: T): T {
  return Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) as T
}
