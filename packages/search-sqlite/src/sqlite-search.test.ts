import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSearchContract } from '@catalog/search/contract'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
let current = ''

runSearchContract(t, 'sqlite', {
  async open(schema) {
    current = join(dir, `search-${n++}.db`)
    return new SqliteSearchIndex({ file: current, schema })
  },
  async reopen(schema) {
    return new SqliteSearchIndex({ file: current, schema })
  },
})

t.test('a second connection to the same file sees the first one’s writes, caches included', async (t) => {
  const fx = new ContractFixture()
  const file = join(dir, 'shared.db')
  const writer = new SqliteSearchIndex({ file, schema: fx.schema })
  const reader = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(async () => {
    await writer.close()
    await reader.close()
  })
  const platforms = async () =>
    Object.fromEntries(
      (await fx.search(reader, '*')).facets
        .find((f) => f.field === 'platform')
        ?.values.map((v) => [v.value, v.count]) ?? [],
    )
  await fx.apply(writer, fx.dataset('one', { datasetProperties: { description: 'first' } }))
  t.same(await platforms(), { 'urn:li:dataPlatform:hive': 1 }, 'the reader loads its facet values')
  t.same(await fx.urns(reader, 'frist'), [ds('one')], 'and its words (typo)')
  await fx.apply(writer, fx.dataset('two', { datasetProperties: { description: 'second' } }, 'kafka'))
  t.same(await platforms(), { 'urn:li:dataPlatform:hive': 1, 'urn:li:dataPlatform:kafka': 1 })
  t.same(await fx.urns(reader, 'secnod'), [ds('two', 'kafka')])
})

t.test('facets loaded from the file equal the facets kept current by writes', async (t) => {
  const fx = new ContractFixture()
  const file = join(dir, 'facet-load.db')
  const live = new SqliteSearchIndex({ file, schema: fx.schema })
  const facets = async (index: SqliteSearchIndex, query: string) =>
    (await fx.search(index, query)).facets
      .map((f) => ({ field: f.field, values: f.values.map((v) => `${v.value}=${v.count}`).sort() }))
      .sort((a, b) => a.field.localeCompare(b.field))
  // Loaded before the writes, so the live cache follows them one by one.
  t.ok((await facets(live, '*')).length >= 0)
  for (let i = 0; i < 40; i++) {
    const tags = [`urn:li:tag:t${i % 3}`, ...(i % 5 === 0 ? ['urn:li:tag:gold'] : [])]
    await fx.apply(
      live,
      fx.dataset(
        `table_${i}`,
        {
          datasetProperties: { description: `orders table ${i}` },
          globalTags: { tags: tags.map((tag) => ({ tag })) },
          ...(i % 7 === 0 ? { status: { removed: true } } : {}),
        },
        i % 2 === 0 ? 'hive' : 'kafka',
      ),
    )
  }
  const queries = ['*', 'orders', 'table_3']
  const expected = []
  for (const query of queries) expected.push(await facets(live, query))
  await live.close()
  // A new index on the file, with nothing in memory: its facets are loaded from the file.
  const loaded = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => loaded.close())
  for (const [i, query] of queries.entries()) {
    t.ok(
      expected[i]?.some((f) => f.values.length > 1),
      `${query}: facets with several values`,
    )
    t.same(await facets(loaded, query), expected[i], `${query}: the same facets from a fresh load`)
  }
})
