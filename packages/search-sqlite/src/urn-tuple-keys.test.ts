import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { urnKeys } from '@catalog/search'
import { ContractFixture, ds } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { SqliteSearchIndex } from './sqlite-search-index.js'
import { ValueAnalysis } from './value-analysis.js'

const dir = mkdtempSync(join(tmpdir(), 'search-sqlite-tuple-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

const hive = 'urn:li:dataset:(urn:li:dataPlatform:hive,Sales.Orders_Daily,PROD)'
const accented = 'urn:li:dataset:(urn:li:dataPlatform:hive,Café.Menu,PROD)'
const custom = 'urn:li:customThing:(a,B)'
const oddCase = 'urn:li:DataSet:(urn:li:dataPlatform:kafka,Topic,DEV)'

t.test('a registry URN with an ASCII tuple id has no key for the id; others keep it', async (t) => {
  const a = new ValueAnalysis(new Set(['dataset']))
  const id = (urn: string) => urn.slice(urn.indexOf(':', 7) + 1).toLowerCase()
  t.same(
    a.keys(hive),
    urnKeys(hive).filter((k) => k !== id(hive)),
  )
  t.notOk(a.keys(hive).includes('(urn:li:dataplatform:hive,sales.orders_daily,prod)'))
  t.ok(a.keys(hive).includes('sales.orders_daily') && a.keys(hive).includes('hive'), 'members kept')
  t.same(a.keys(accented), urnKeys(accented), 'a non-ASCII id keeps its key')
  t.same(a.keys(custom), urnKeys(custom), 'a type the registry does not know keeps it')
  t.same(a.keys(oddCase), urnKeys(oddCase), 'a type written in another case keeps it')
  t.same(a.keys('urn:li:tag:Legacy'), ['legacy'], 'an id that is no tuple is its member')
})

t.test('field:value finds URN tuple ids as before, whether or not a key holds them', async (t) => {
  const fx = new ContractFixture()
  const file = join(dir, 'tuple.db')
  const index = new SqliteSearchIndex({ file, schema: fx.schema })
  t.teardown(() => index.close())
  const lineage = (...urns: string[]) => ({
    upstreamLineage: {
      upstreams: urns.map((dataset) => ({
        dataset,
        type: 'TRANSFORMED',
        auditStamp: { time: 0, actor: 'urn:li:corpuser:x' },
      })),
    },
  })
  await fx.apply(index, [
    ...fx.dataset('a', lineage(hive)),
    ...fx.dataset('b', lineage(accented, custom)),
    ...fx.dataset('c', lineage(oddCase)),
    ...fx.dataset('d', lineage('URN:LI:dataset:(urn:li:dataPlatform:hive,Sales.Orders_Daily,PROD)')),
  ])
  const keys = new Database(file, { readonly: true })
  t.teardown(() => keys.close())
  t.equal(
    keys
      .prepare(
        "SELECT count(*) FROM urn_keys WHERE key = '(urn:li:dataplatform:hive,sales.orders_daily,prod)'",
      )
      .pluck()
      .get(),
    0,
    'no key row for the ASCII tuple id',
  )
  const urns = async (q: string) => (await fx.urns(index, q)).sort()
  t.same(await urns('upstreams:"(urn:li:dataPlatform:hive,Sales.Orders_Daily,PROD)"'), [ds('a')])
  t.same(await urns('upstreams:"(URN:LI:DATAPLATFORM:HIVE,SALES.ORDERS_DAILY,PROD)"'), [ds('a')], 'any case')
  t.same(await urns('upstreams:\\(urn:li:dataplatform:hive,sales.orders*'), [ds('a')], 'a prefix')
  t.same(await urns('upstreams:"(urn:li:dataPlatform:hive,Cafe.Menu,PROD)"'), [ds('b')], 'folded accents')
  t.same(await urns('upstreams:"(urn:li:dataPlatform:hive,Café.Menu,PROD)"'), [ds('b')])
  t.same(await urns('upstreams:"(a,b)"'), [ds('b')], 'an unknown type')
  t.same(await urns('upstreams:"(urn:li:dataPlatform:kafka,topic,dev)"'), [ds('c')], 'a type in another case')
  t.same(await urns('upstreams:\\(urn:li:dataplatform:*'), [ds('a'), ds('b'), ds('c')].sort(), 'every tuple')
  t.same(await urns('upstreams:sales.orders_daily'), [ds('a')], 'members as before')
  t.same(await urns('upstreams:"(urn:li:dataPlatform:hive,Sales.Orders,PROD)"'), [], 'no partial id')
})
