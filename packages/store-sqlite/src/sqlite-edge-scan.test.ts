/**
 * The edge scan merges the rows of an edge stored by several aspects without a DISTINCT over the
 * table: pages stay full and in order when the duplicates outnumber the rows read per page.
 */
import type { EdgeKey, EdgeScanQuery } from '@catalog/store'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteEdgeScan } from './sqlite-edge-scan.js'
import { openStoreSchema } from './sqlite-schema.js'

const ALL: EdgeScanQuery = {
  types: [],
  sourceTypes: [],
  destinationTypes: [],
  sourceUrns: [],
  destinationUrns: [],
  count: 30,
  includeSoftDeleted: true,
}

t.test('an edge stored by three aspects is one edge; pages cover every edge once, in order', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  openStoreSchema(db)
  const insert = db.prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)')
  const expected: EdgeKey[] = []
  // Destinations inserted in reverse, so their ids run against their URN order.
  for (let i = 49; i >= 0; i--) {
    const destination = `urn:li:dataset:d${String(i).padStart(2, '0')}`
    for (const aspect of ['upstreamLineage', 'fineGrained', 'other'])
      insert.run('urn:li:dataJob:j', 'Produces', destination, aspect)
    expected.unshift({ source: 'urn:li:dataJob:j', destination, type: 'Produces' })
  }
  const scan = new SqliteEdgeScan(db)
  const seen: EdgeKey[] = []
  let page = await scan.scan(ALL)
  seen.push(...page.edges)
  t.equal(page.edges.length, 30, 'the first page is full although 90 rows hold its 30 edges')
  while (page.next) {
    page = await scan.scan({ ...ALL, after: page.next })
    seen.push(...page.edges)
  }
  t.same(seen, expected, 'every edge once, by destination URN')
})

t.test('source entity types: pages follow the cursor through the range of those URNs', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  openStoreSchema(db)
  const insert = db.prepare("INSERT INTO edges (source, type, destination, aspect) VALUES (?, 'Rel', ?, 'a')")
  for (let i = 0; i < 12; i++)
    for (const type of ['chart', 'dataset', 'tag', 'corpuser'])
      insert.run(`urn:li:${type}:s${i % 5}`, `urn:li:dataset:d${i}`)
  const scan = new SqliteEdgeScan(db)
  const everything = (await scan.scan({ ...ALL, count: 1000 })).edges
  for (const sourceTypes of [['chart'], ['tag', 'chart'], ['dataset', 'corpuser']]) {
    const seen: EdgeKey[] = []
    let page = await scan.scan({ ...ALL, sourceTypes, count: 4 })
    seen.push(...page.edges)
    while (page.next) {
      page = await scan.scan({ ...ALL, sourceTypes, count: 4, after: page.next })
      seen.push(...page.edges)
    }
    const expected = everything.filter((e) => sourceTypes.some((s) => e.source.startsWith(`urn:li:${s}:`)))
    t.equal(expected.length, 12 * sourceTypes.length)
    t.same(seen, expected, sourceTypes.join())
  }
})

t.test('a filter no edge can match answers without the keyset scan', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  openStoreSchema(db)
  db.prepare('INSERT INTO edges (source, type, destination, aspect) VALUES (?, ?, ?, ?)').run(
    'urn:li:dataset:a',
    'DownstreamOf',
    'urn:li:dataset:b',
    'upstreamLineage',
  )
  const scan = new SqliteEdgeScan(db)
  const prepared: string[] = []
  const prepare = db.prepare.bind(db)
  db.prepare = ((sql: string) => {
    prepared.push(sql)
    return prepare(sql)
  }) as typeof db.prepare
  for (const q of [
    { types: ['NoSuchType'] },
    { sourceTypes: ['chart'] },
    { destinationTypes: ['chart'] },
    { types: ['DownstreamOf'], destinationTypes: ['dashboard'] },
  ])
    t.same(await scan.scan({ ...ALL, ...q }), { edges: [] }, JSON.stringify(q))
  t.same(prepared, [], 'no scan statement was needed')
  t.same((await scan.scan({ ...ALL, types: ['DownstreamOf'] })).edges, [
    { source: 'urn:li:dataset:a', destination: 'urn:li:dataset:b', type: 'DownstreamOf' },
  ])
  t.equal(prepared.length, 1, 'a filter that can match scans')
})

/** 3,000 datasets in a chain of `DownstreamOf`, every 500th with a `Rare` edge, and 3 charts fed by a few. */
function chainOfDatasets(): Database.Database {
  const db = new Database(':memory:')
  openStoreSchema(db)
  db.exec(`WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 2999)
    INSERT INTO edges (source, type, destination, aspect)
      SELECT printf('urn:li:dataset:d%04d', i), 'DownstreamOf', printf('urn:li:dataset:d%04d', (i + 1) % 3000), 'a'
      FROM c;
    WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 500 FROM c WHERE i < 2500)
    INSERT INTO edges (source, type, destination, aspect)
      SELECT printf('urn:li:dataset:d%04d', i), 'Rare', printf('urn:li:dataset:d%04d', 2999 - i), 'a' FROM c;
    INSERT INTO edges (source, type, destination, aspect) VALUES
      ('urn:li:dataset:d0100', 'Feeds', 'urn:li:chart:c1', 'a'),
      ('urn:li:dataset:d2900', 'Feeds', 'urn:li:chart:c2', 'a'),
      ('urn:li:dataset:d2900', 'Feeds', 'urn:li:chart:c3', 'a');`)
  return db
}

async function scrollAll(scan: SqliteEdgeScan, q: EdgeScanQuery) {
  const pages: Array<{ edges: readonly EdgeKey[]; next?: EdgeKey }> = []
  let after: EdgeKey | undefined
  do {
    const page = await scan.scan({ ...q, after })
    pages.push(page)
    after = page.next
  } while (after && pages.length < 1000)
  return { pages, edges: pages.flatMap((p) => p.edges) }
}

t.test(
  'a page out of time answers what it found and a cursor past what it read; the scroll misses nothing',
  async (t) => {
    const db = chainOfDatasets()
    t.teardown(() => db.close())
    const unbounded = new SqliteEdgeScan(db)
    const expected = (await unbounded.scan({ ...ALL, types: ['Rare'], count: 100 })).edges
    t.equal(expected.length, 6, 'six Rare edges, read in one unhurried page')
    // No time at all: every page reads one step of sources (256 at first) and stops.
    const hurried = new SqliteEdgeScan(db, { budgetMs: 0, stepMs: 1 })
    for (const q of [
      { ...ALL, types: ['Rare'], count: 2 },
      { ...ALL, types: ['Rare'], count: 2, includeSoftDeleted: false },
      { ...ALL, types: ['Rare'], sourceTypes: ['dataset'], count: 4 },
    ]) {
      const { pages, edges } = await scrollAll(hurried, q)
      t.same(edges, expected, `every edge once, in order: ${JSON.stringify(q)}`)
      t.ok(pages.length > 3, `${pages.length} pages`)
      t.ok(
        pages.some((p) => p.edges.length === 0 && p.next !== undefined),
        'a page with no edge still carries a cursor (DataHub answers a short page with a scroll id)',
      )
      t.equal(pages.at(-1)?.next, undefined, 'the last page has no cursor')
      for (const p of pages.slice(0, -1)) t.ok(p.edges.length <= q.count, 'never more than asked for')
    }
    const first = await hurried.scan({ ...ALL, types: ['Rare'], count: 2 })
    t.same(
      first,
      { edges: [expected[0]], next: { source: 'urn:li:dataset:d0253', destination: '', type: '' } },
      'the first page read 256 sources (3 charts, d0000 to d0252): the Rare edge of d0000, then a cursor at d0253',
    )
  },
)

t.test(
  'narrowed to a few destinations, the scan reads only their incoming edges: one page, no time needed',
  async (t) => {
    const db = chainOfDatasets()
    t.teardown(() => db.close())
    const hurried = new SqliteEdgeScan(db, { budgetMs: 0, stepMs: 1 })
    const feeds = (source: string, chart: string) => ({
      source: `urn:li:dataset:${source}`,
      destination: `urn:li:chart:${chart}`,
      type: 'Feeds',
    })
    t.same(await hurried.scan({ ...ALL, types: ['Feeds'], destinationTypes: ['chart'] }), {
      edges: [feeds('d0100', 'c1'), feeds('d2900', 'c2'), feeds('d2900', 'c3')],
    })
    t.same(
      await hurried.scan({ ...ALL, destinationUrns: ['urn:li:chart:c3', 'urn:li:chart:c2'], count: 1 }),
      { edges: [feeds('d2900', 'c2')], next: feeds('d2900', 'c2') },
    )
    t.same(
      await hurried.scan({
        ...ALL,
        types: ['DownstreamOf'],
        destinationTypes: ['chart'],
        includeSoftDeleted: false,
      }),
      { edges: [] },
      'a relationship type no edge to those destinations has: nothing, and no cursor',
    )
  },
)

t.test(
  'source URNs with many edges are read a few at a time; the pages cut by time miss nothing',
  async (t) => {
    const db = new Database(':memory:')
    t.teardown(() => db.close())
    openStoreSchema(db)
    // 12 jobs producing 500 datasets each: more edges than the scan reads at once.
    db.exec(`WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c WHERE i < 5999)
    INSERT INTO edges (source, type, destination, aspect)
      SELECT printf('urn:li:dataJob:j%02d', i / 500), 'Produces', printf('urn:li:dataset:d%04d', i), 'a' FROM c`)
    const sourceUrns = Array.from(
      { length: 12 },
      (_, i) => `urn:li:dataJob:j${String(11 - i).padStart(2, '0')}`,
    )
    const q = { ...ALL, sourceUrns: [...sourceUrns, 'urn:li:dataJob:none'], count: 10_000 }
    const whole = await new SqliteEdgeScan(db).scan(q)
    t.equal(whole.edges.length, 6000, 'every edge in one unhurried page')
    t.equal(whole.next, undefined)
    const { pages, edges } = await scrollAll(new SqliteEdgeScan(db, { budgetMs: 0, stepMs: 1 }), q)
    t.same(edges, whole.edges, 'the same edges, in order')
    t.same(
      pages.map((p) => p.edges.length),
      [2000, 2000, 2000, 0],
      'four sources a page when there is no time for more; the last reads dataJob:none, which has no edge',
    )
    t.same(pages[0]?.next, { source: 'urn:li:dataJob:j04', destination: '', type: '' })
  },
)
