import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import t, { type Test } from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-cap-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

/** Five datasets whose description says `ledger`, written a..e (index order); e has it in its name too. */
async function open(t: Test, cap?: number, rankWindow?: number) {
  const fx = new ContractFixture()
  const index = new SqliteSearchIndex({
    file: join(dir, `cap-${Math.random()}.db`),
    schema: fx.schema,
    ...(cap === undefined ? {} : { totalHitsCap: cap }),
    ...(rankWindow === undefined ? {} : { rankWindow }),
  })
  t.teardown(() => index.close())
  const rows: Array<[string, string]> = [
    ['a', 'hive'],
    ['b', 'hive'],
    ['c', 'hive'],
    ['d', 'kafka'],
    ['ledger', 'kafka'],
  ]
  for (const [name, platform] of rows)
    await fx.apply(
      index,
      fx.dataset(name, { datasetProperties: { description: `the ${name} ledger` } }, platform),
    )
  return { fx, index }
}

const platforms = (page: {
  facets: ReadonlyArray<{ field: string; values: ReadonlyArray<{ value: string; count: number }> }>
}) =>
  Object.fromEntries(
    page.facets.find((f) => f.field === 'platform')?.values.map((v) => [v.value, v.count]) ?? [],
  )

t.test('a broad text query counts, facets and ranks its first matches up to the cap', async (t) => {
  const { fx, index } = await open(t, 3)
  const page = await fx.search(index, 'ledger')
  t.equal(page.total, 3, 'the total stops at the cap')
  t.same(page.hits.map((h) => h.urn).sort(), [ds('a'), ds('b'), ds('c')], 'the hits are the counted matches')
  t.same(platforms(page), { 'urn:li:dataPlatform:hive': 3 }, 'the facets count exactly the counted hits')
  t.same(await fx.urns(index, 'ledger', { start: 3 }), [], 'no page past the cap')
})

t.test('below the cap the total, facets and ranking are exact', async (t) => {
  const { fx, index } = await open(t, 3)
  const page = await fx.search(index, 'ledger', {
    filter: { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:kafka' }] }] },
  })
  t.equal(page.total, 2, 'filtered-out matches do not use up the cap')
  t.same(
    page.hits.map((h) => h.urn),
    [ds('ledger', 'kafka'), ds('d', 'kafka')],
    'a name match ranks first',
  )
  t.same(platforms(page), { 'urn:li:dataPlatform:kafka': 2 })
})

t.test('soft-deleted matches do not use up the cap', async (t) => {
  const { fx, index } = await open(t, 3)
  await fx.apply(index, [fx.upsert(ds('a'), 'status', { removed: true })])
  const page = await fx.search(index, 'ledger')
  t.equal(page.total, 3)
  t.same(page.hits.map((h) => h.urn).sort(), [ds('b'), ds('c'), ds('d', 'kafka')])
})

t.test('`*` and sorted queries still count and facet every hit', async (t) => {
  const { fx, index } = await open(t, 3)
  const all = await fx.search(index, '*')
  t.equal(all.total, 5)
  t.same(platforms(all), { 'urn:li:dataPlatform:hive': 3, 'urn:li:dataPlatform:kafka': 2 })
  const sorted = await fx.search(index, 'ledger', { sort: { field: 'description', order: 'DESCENDING' } })
  t.equal(sorted.total, 5)
  t.equal(sorted.hits[0]?.urn, ds('ledger', 'kafka'), 'sorted over every match')
})

t.test('the default cap is DataHub’s 10,000: small result sets are untouched', async (t) => {
  const { fx, index } = await open(t)
  const page = await fx.search(index, 'ledger')
  t.equal(page.total, 5)
  t.equal(page.hits[0]?.urn, ds('ledger', 'kafka'))
  t.same(platforms(page), { 'urn:li:dataPlatform:hive': 3, 'urn:li:dataPlatform:kafka': 2 })
})

t.test('only the counted hits in the rank window are ranked; the rest follow in index order', async (t) => {
  const { fx, index } = await open(t, 5, 2)
  const page = await fx.search(index, 'ledger')
  t.equal(page.total, 5)
  t.same(
    page.hits.map((h) => h.urn),
    [ds('a'), ds('b'), ds('c'), ds('d', 'kafka'), ds('ledger', 'kafka')],
    'the name match past the window is not ranked first',
  )
  const wide = await open(t, 5, 5)
  t.equal((await wide.fx.urns(wide.index, 'ledger'))[0], ds('ledger', 'kafka'), 'inside the window it is')
})
