import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ENTITY_TYPE_FIELD } from '@catalog/search'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import t, { type Test } from 'tap'
import { FacetCache } from './facet-cache.js'
import { SqliteSearchIndex } from './sqlite-search-index.js'
import { Vocabulary } from './vocabulary.js'
import { IdTable } from './word-ranker.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-scale-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

function open(t: Test) {
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({ file: join(dir, `scale-${Math.random()}.db`), schema: fx.schema })
  t.teardown(() => index.close())
  return { fx, index }
}

const described = (fx: ContractFixture, name: string, description: string, platform = 'hive') =>
  fx.dataset(name, { datasetProperties: { description } }, platform)

t.test('a prefix expanded from the vocabulary finds words written after it was loaded', async (t) => {
  const { fx, index } = open(t)
  await fx.apply(index, described(fx, 'a', 'ledger of payments'))
  t.same(await fx.urns(index, 'ledg'), [ds('a')], 'the vocabulary is loaded and sorted')
  await fx.apply(index, described(fx, 'b', 'ledgerbook of refunds'))
  t.same(new Set(await fx.urns(index, 'ledg')), new Set([ds('a'), ds('b')]), 'the new word is a completion')
  t.equal((await fx.urns(index, 'ledgerb'))[0], ds('b'), 'the longer prefix (the other is a typo match)')
  t.same(await fx.urns(index, 'ledgqq'), [], 'no word starts so, none is a typo away: nothing matches')
})

t.test('a prefix with more completions than the cap still matches every one', async (t) => {
  const { fx, index } = open(t)
  const entries = Array.from({ length: 40 }, (_, i) =>
    described(
      fx,
      `d${i}`,
      `widget${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    ),
  ).flat()
  await fx.apply(index, entries)
  t.equal((await fx.search(index, 'widget')).total, 40)
})

t.test('ranking by field tiers: name before description, more words first, typo-only last', async (t) => {
  const { fx, index } = open(t)
  await fx.apply(index, [
    ...described(fx, 'plain', 'quarterly revenue'),
    ...fx.dataset('named', { datasetProperties: { name: 'Revenue', description: 'numbers' } }),
    ...described(fx, 'typo', 'quarterly revenoe'),
    ...described(fx, 'both', 'revenue for the quarter, quarterly'),
  ])
  t.same(
    await fx.urns(index, 'revenue'),
    [ds('named'), ds('plain'), ds('both'), ds('typo')],
    'name match first, description matches in id order, the typo-only match last',
  )
  t.same(
    await fx.urns(index, 'quarterly revenue'),
    [ds('plain'), ds('both'), ds('typo'), ds('named')],
    'both words first (a typo counts as a matched word, scored lowest), then the one-word match',
  )
})

t.test('a short page is the head of the whole ranking (the ranker stops reading early)', async (t) => {
  const { fx, index } = open(t)
  const names = ['Revenue daily', 'Revenue', 'Costs', 'Revenue quarterly', 'Daily costs']
  const descriptions = ['quarterly revenue', 'daily revenoe', 'revenue and costs', 'costs', 'daily revenue']
  await fx.apply(
    index,
    names.flatMap((name, i) =>
      fx.dataset(`d${i}`, { datasetProperties: { name, description: descriptions[i] as string } }),
    ),
  )
  for (const q of ['revenue', 'daily revenue', 'revenue costs', 'quarterly revenue daily', 'revenoe costs']) {
    const whole = await fx.urns(index, q)
    t.ok(whole.length > 1, `${q}: several hits`)
    for (let k = 1; k <= whole.length; k++)
      t.same(await fx.urns(index, q, { count: k }), whole.slice(0, k), `${q}: the first ${k}`)
    t.same(await fx.urns(index, q, { start: 1, count: 2 }), whole.slice(1, 3), `${q}: a later page`)
  }
})

t.test(
  'a search without a filter keeps soft-deleted documents and other types out, from memory',
  async (t) => {
    const { fx, index } = open(t)
    await fx.apply(index, [
      ...described(fx, 'kept', 'ledger'),
      ...described(fx, 'gone', 'ledger'),
      fx.upsert(ds('gone'), 'status', { removed: true }),
    ])
    t.same(await fx.urns(index, 'ledger'), [ds('kept')])
    t.same(
      new Set(await fx.urns(index, 'ledger', { includeSoftDeleted: true })),
      new Set([ds('kept'), ds('gone')]),
    )
    t.same(await fx.urns(index, 'ledger', { entity: 'chart' }), [])
    await fx.apply(index, [fx.upsert(ds('gone'), 'status', { removed: false })])
    t.same(
      new Set(await fx.urns(index, 'ledger')),
      new Set([ds('kept'), ds('gone')]),
      'undeleted: seen again',
    )
  },
)

t.test('facet columns: rewrites, deletes and compaction keep counts exact', async (t) => {
  const docs: Array<[number, string, number, number]> = [
    [1, 'dataset', 0, 3],
    [2, 'dataset', 1, 5],
  ]
  const values: Array<[string, string, number[]]> = [
    ['platform', 'hive', [1]],
    ['platform', 'kafka', [2]],
  ]
  const cache = new FacetCache(new Set(['platform']), {
    docs: (from, limit) => docs.filter((d) => d[0] >= from).slice(0, limit),
    values: (field) => ({ postings: values.filter((v) => v[0] === field), last: undefined }),
  })
  const facets = [{ field: 'platform', displayName: 'Platform' }]
  const counts = (ids: number[]) =>
    Object.fromEntries(cache.count(ids, facets, 10)[0]?.values.map((v) => [v.value, v.count]) ?? [])
  t.same(counts([1, 2]), { hive: 1, kafka: 1 })
  t.same([cache.bestSize(1), cache.bestSize(2), cache.bestSize(9)], [3, 5, 0], 'best-field sizes as loaded')
  const inScope = cache.scope(['dataset'], false)
  t.same([inScope(1), inScope(2), inScope(3)], [true, false, false], 'soft-deleted and unknown ids are out')
  t.same([cache.scope(['dataset'], true)(2), cache.scope(['chart'], true)(1)], [true, false])
  // Many rewrites of the same documents: the value slices move to the end and get compacted.
  for (let i = 0; i < 5000; i++)
    cache.set(1 + (i % 2), 'dataset', { platform: [i % 3 === 0 ? 's3' : 'hive'] }, 1)
  cache.set(1, 'dataset', { platform: ['hive'] }, 4)
  cache.set(2, 'dataset', { platform: ['hive'] }, 2)
  t.same(counts([1, 2]), { hive: 2 })
  cache.set(5000, 'dataset', { platform: ['s3', 'hive'] }, 7)
  cache.delete(1)
  t.same(counts([1, 2, 5000]), { hive: 2, s3: 1 })
  t.same([cache.bestSize(2), cache.bestSize(5000)], [2, 7], 'as last written')
  t.ok(cache.size().bytes < 200_000, 'compaction keeps the value array small')
  t.same(cache.count([5000], [{ field: ENTITY_TYPE_FIELD, displayName: 'Type' }], 10)[0]?.values, [
    { value: 'dataset', count: 1 },
  ])
})

t.test('vocabulary completions', async (t) => {
  const words = ['order', 'orders', 'ordinal', 'zebra', '12345']
  const v = new Vocabulary((after, limit) =>
    words
      .filter((w) => w > after)
      .slice(0, limit)
      .map((w) => [w, 1] as const),
  )
  t.same(v.completions('orde', 10), ['order', 'orders'])
  t.same(v.completions('ordx', 10), [])
  t.equal(v.completions('ord', 2), undefined, 'more than the cap')
  t.equal(v.completions('or', 10), undefined, 'too short to tell')
  t.equal(v.completions('123', 10), undefined, 'numbers are not in the vocabulary')
  t.equal(v.completions('ördx', 10), undefined, 'not plain ASCII')
  v.add(['orderly'])
  t.same(v.completions('orde', 10)?.sort(), ['order', 'orderly', 'orders'])
})

t.test('ranking state: the same slots for ids whether mapped by array or by map', async (t) => {
  for (const bound of [1000, 10_000_000]) {
    const table = new IdTable(bound)
    const ids = [7, 999, 7, 3, 999, 0]
    t.same(
      ids.map((id) => table.slot(id)),
      [0, 1, 0, 2, 1, 3],
      `bound ${bound}`,
    )
    t.same(table.ids, [7, 999, 3, 0])
    t.equal(table.scores.length, 4)
  }
})

t.test('autocomplete takes matches in the best fields first, then the others', async (t) => {
  const { fx, index } = open(t)
  await fx.apply(index, [
    ...fx.dataset('alpha', { datasetProperties: { name: 'Alpha' } }, 'kafka'),
    ...fx.dataset('beta', { datasetProperties: { name: 'Kafka stream' } }),
  ])
  const suggest = async (limit: number) =>
    (await index.autocomplete(fx.requests.autocomplete({ query: 'kaf', entityType: 'dataset', limit })))
      .suggestions
  t.same(
    (await suggest(10)).map((s) => s.urn),
    [ds('beta'), ds('alpha', 'kafka')],
    'the name match (boost 10) before the platform match (boost 1), though written later',
  )
  t.same(
    (await suggest(1)).map((s) => s.text),
    ['Kafka stream'],
  )
})

t.test('equal scores: the shorter name first, also after a restart', async (t) => {
  const fx = new ContractFixture()
  const file = join(dir, `sizes-${Math.random()}.db`)
  const first = new SqliteSearchIndex({ file, schema: fx.schema })
  await fx.apply(first, [
    ...fx.dataset('a1', { datasetProperties: { name: 'Revenue daily archive history' } }),
    ...fx.dataset('a2', { datasetProperties: { name: 'Revenue' } }),
    ...fx.dataset('a3', { datasetProperties: { name: 'Revenue daily' } }),
  ])
  const order = [ds('a2'), ds('a3'), ds('a1')]
  t.same(await fx.urns(first, 'revenue'), order, 'sizes counted as written')
  t.same(await fx.urns(first, 'revenue', { count: 1 }), [ds('a2')], 'the early stop keeps the order')
  await first.close()
  const again = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => again.close())
  t.same(await fx.urns(again, 'revenue'), order, 'sizes read back from the index')
})
