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
