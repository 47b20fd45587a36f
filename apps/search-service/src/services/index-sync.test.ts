import { type ChangeLogEntry, Registry } from '@catalog/core'
import { DocumentDeriver, type LogApplyResult, type SearchIndex, SearchSchema } from '@catalog/search'
import t from 'tap'
import type { ChangeSource } from './change-source.js'
import { IndexSync, NOTED_WRITE_DELAY_MS } from './index-sync.js'

/**
 * A change log in memory and an index that records each page it is given as text; the log's
 * text pages hold at most `textPage` entries, however many are asked for.
 */
function fixture(textPage = Number.POSITIVE_INFINITY, storeFile?: string) {
  const log: ChangeLogEntry[] = []
  const pages: number[][] = []
  let cursor = 0
  const write = () => {
    const seq = log.length + 1
    log.push({
      seq,
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,t${seq},PROD)`,
      entityType: 'dataset',
      aspect: 'status',
      change: 'UPSERT',
      value: { removed: false },
      created: { time: 0, actor: 'urn:li:corpuser:datahub' },
    })
    return seq
  }
  const index = {
    cursor: async () => cursor,
    async applyLog(text: string): Promise<LogApplyResult> {
      const entries = JSON.parse(text) as ChangeLogEntry[]
      if (entries.length > 0) pages.push(entries.map((e) => e.seq))
      cursor = entries.at(-1)?.seq ?? cursor
      return { entries: entries.length, documentsChanged: entries.length, cursor }
    },
  } as unknown as SearchIndex
  const source: ChangeSource = {
    ...(storeFile ? { storeFile } : {}),
    changes: async (after, limit) => ({
      head: log.length,
      entries: log.filter((e) => e.seq > after).slice(0, limit),
    }),
    changesJson: async (after, limit) =>
      JSON.stringify(log.filter((e) => e.seq > after).slice(0, Math.min(limit, textPage))),
  }
  const sync = new IndexSync(index, source, new DocumentDeriver(new SearchSchema(new Registry())))
  return { sync, write, pages }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

t.test('writes noted within the window are indexed together, in one page', async (t) => {
  const { sync, write, pages } = fixture()
  t.teardown(() => sync.stop())
  const started = performance.now()
  sync.noteWrite(write())
  await sleep(NOTED_WRITE_DELAY_MS / 5)
  for (let i = 0; i < 4; i++) sync.noteWrite(write())
  const noted = performance.now() - started
  await sleep(NOTED_WRITE_DELAY_MS * 3)
  // A machine too loaded to run the 10 ms sleep within the window gives two pages, rightly.
  if (noted < NOTED_WRITE_DELAY_MS) t.same(pages, [[1, 2, 3, 4, 5]], 'one page of every noted write')
  else t.same(pages.flat(), [1, 2, 3, 4, 5], `every noted write (noting took ${noted} ms)`)
  t.same((await sync.stats()).cursor, 5)
})

t.test('a search does not wait for the window: fresh() indexes the noted writes at once', async (t) => {
  const { sync, write, pages } = fixture()
  t.teardown(() => sync.stop())
  sync.noteWrite(write())
  sync.noteWrite(write())
  // The fixture's log and index answer in microtasks: a fresh() that does not wait for the
  // window resolves before any timer runs, however loaded the machine (no wall-clock bound).
  let timerRan = false
  setTimeout(() => {
    timerRan = true
  }, 1)
  await sync.fresh()
  t.notOk(timerRan, 'answered without waiting for a timer, let alone the window')
  t.same(pages, [[1, 2]], 'the noted writes are indexed')
  await sleep(NOTED_WRITE_DELAY_MS * 2)
  t.same(pages, [[1, 2]], 'and not again when the window ends')
})

t.test('a text page that ends early (bounded by its characters) does not end the catch-up', async (t) => {
  const { sync, write, pages } = fixture(2)
  t.teardown(() => sync.stop())
  for (let i = 0; i < 5; i++) sync.noteWrite(write())
  await sync.fresh()
  t.same(pages, [[1, 2], [3, 4], [5]], 'every noted write is indexed before the search, two per page')
  t.same((await sync.stats()).cursor, 5)
})

/**
 * A change log in memory as the embedded store's file would hold it, and an index that reads
 * that log itself after its own cursor (as the SQLite index's worker does), `page` entries at
 * most per call; text pages fail the test.
 */
function storeFixture(page = Number.POSITIVE_INFINITY, delayMs = 0) {
  const log: number[] = []
  const calls: Array<[string, number]> = []
  let cursor = 0
  const index = {
    cursor: async () => cursor,
    async applyStoreLog(file: string, limit: number): Promise<LogApplyResult> {
      calls.push([file, limit])
      if (delayMs > 0) await sleep(delayMs)
      const entries = log.filter((seq) => seq > cursor).slice(0, Math.min(limit, page))
      cursor = entries.at(-1) ?? cursor
      return { entries: entries.length, documentsChanged: entries.length, cursor }
    },
    applyLog: async () => {
      throw new Error('the index reads the store file: no text page is built')
    },
  } as unknown as SearchIndex
  const source: ChangeSource = {
    storeFile: '/data/metadata.db',
    changes: async () => {
      throw new Error('the index reads the store file: no page is read here')
    },
    changesJson: async () => {
      throw new Error('the index reads the store file: no text page is read here')
    },
  }
  const sync = new IndexSync(index, source, new DocumentDeriver(new SearchSchema(new Registry())))
  const write = () => {
    log.push(log.length + 1)
    return log.length
  }
  return { sync, write, calls, index, source }
}

t.test(
  'with the store file, an index that reads the log itself is asked for pages, not given text',
  async (t) => {
    const { sync, write, calls } = storeFixture(2)
    t.teardown(() => sync.stop())
    for (let i = 0; i < 5; i++) sync.noteWrite(write())
    await sync.fresh()
    t.same(
      (await sync.stats()).cursor,
      5,
      'every noted write is indexed before the search (read-your-writes)',
    )
    t.same((await sync.stats()).applied, 5)
    t.same(
      calls.map(([file]) => file),
      Array(calls.length).fill('/data/metadata.db'),
      'each call names the store file',
    )
    t.ok(
      calls.every(([, limit]) => limit === 1000),
      'pages of at most 1,000 entries',
    )
    t.equal(calls.length, 4, 'three pages of two or one, and an empty one that ends the drain')
    write()
    t.equal(await sync.catchUp(), 6, 'a catch-up finds the new entry')
  },
)

t.test('an index that cannot read the store file is given text pages as before', async (t) => {
  // A source naming a store file, and an index without applyStoreLog (another kind of index).
  const { sync, write, pages } = fixture(Number.POSITIVE_INFINITY, '/data/metadata.db')
  t.teardown(() => sync.stop())
  for (let i = 0; i < 3; i++) sync.noteWrite(write())
  await sync.fresh()
  t.same(pages, [[1, 2, 3]], 'one text page')
})

t.test('stop ends a catch-up after its page; the next start applies the rest', async (t) => {
  const { sync, write, calls, index, source } = storeFixture(10, 1)
  for (let i = 0; i < 1_000; i++) write()
  const draining = sync.catchUp()
  while (calls.length < 3) await sleep(1)
  await sync.stop()
  const stoppedAt = (await sync.stats()).cursor
  t.ok(
    stoppedAt >= 30 && stoppedAt < 100,
    `stopped within a few pages of 10 (cursor ${stoppedAt}), not at 1,000`,
  )
  t.equal(await draining, stoppedAt, 'the catch-up in progress returns where it stopped')
  const next = new IndexSync(index, source, new DocumentDeriver(new SearchSchema(new Registry())))
  t.teardown(() => next.stop())
  t.equal(await next.catchUp(), 1_000, 'a new sync on the same index resumes from its cursor')
})

t.test('stop ends a catch-up of text pages after its page too', async (t) => {
  const { sync, write, pages } = fixture(10)
  for (let i = 0; i < 1_000; i++) write()
  const draining = sync.catchUp()
  await sync.stop()
  const cursor = await draining
  t.ok(pages.length <= 2, `one page or two applied (${pages.length}), not 100`)
  t.ok(cursor <= 20, `the catch-up returns where it stopped (${cursor})`)
})
