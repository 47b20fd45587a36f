import type { Test } from 'tap'
import { type ContractContext, ds, seed } from './contract-fixtures.js'

/** Contract cases: browse and autocomplete. */
export function browseCases(t: Test, ctx: () => ContractContext): void {
  t.test('browse: entities at the path, groups below it, totals and paging', async (t) => {
    const { index, fx } = ctx()
    const b = (n: number, paths: string[]) =>
      fx.dataset(
        `test-browse-${n}`,
        { browsePaths: { paths }, datasetProperties: { name: `b${n}` } },
        'kafka',
      )
    await fx.apply(index, [
      ...b(1, ['/prod/kafka1', '/prod/kafka2']),
      ...b(2, ['/prod/kafka1', '/prod/kafka2']),
      ...b(3, ['/prod', '/prod/kafka1']),
      ...b(4, ['/prod/kafka1']),
      fx.upsert(ds('test-browse-4', 'kafka'), 'status', { removed: true }),
    ])
    const browse = (path: string, start = 0, limit = 10) =>
      index.browse(fx.requests.browse({ path, entityType: 'dataset', start, limit }))
    const u = (n: number) => ds(`test-browse-${n}`, 'kafka')
    const prod = await browse('/prod')
    t.same(prod.entities, [u(3)])
    t.same(prod.groups, [
      { name: 'kafka1', count: 3 },
      { name: 'kafka2', count: 2 },
    ])
    t.equal(prod.totalNumEntities, 3)
    t.equal(prod.numEntities, 1)
    t.equal(prod.numGroups, 2)
    const k1 = await browse('/prod/kafka1')
    t.same(k1.entities, [u(1), u(2), u(3)], 'the soft-deleted one is left out')
    t.same(k1.groups, [])
    t.equal(k1.totalNumEntities, 0)
    t.equal(k1.numEntities, 3)
    t.same((await browse('/prod/kafka2')).entities, [u(1), u(2)])
    const root = await browse('/')
    t.same(root.groups, [{ name: 'prod', count: 3 }])
    const paged = await browse('/prod', 1, 2)
    t.same(paged.groups, [{ name: 'kafka2', count: 2 }], 'groups come first in paging')
    t.same(paged.entities, [u(3)])
    t.same((await browse('/prod', 2, 2)).entities, [u(3)])
    t.same((await browse('/prod', 3, 2)).entities, [])
    const everything = { or: [{ and: [{ field: '_entityType', value: 'dataset' }] }] }
    for (const path of ['/', '/prod', '/prod/kafka1', '/prod/kafka2', '/nope']) {
      const plain = await browse(path)
      const filtered = await index.browse(
        fx.requests.browse({ path, entityType: 'dataset', start: 0, limit: 10, filter: everything }),
      )
      t.same(filtered, plain, `a filter matching everything gives the same browse of ${path}`)
    }
  })
  t.test('autocomplete suggests values of autocomplete fields by prefix', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, seed(fx))
    const ac = (query: string, limit = 10, field?: string) =>
      index.autocomplete(
        fx.requests.autocomplete({ query, entityType: 'dataset', limit, ...(field ? { field } : {}) }),
      )
    const orders = await ac('Ord')
    t.same(
      orders.suggestions.map((s) => s.text),
      ['Orders Daily'],
    )
    t.same(
      orders.suggestions.map((s) => s.urn),
      [ds('orders_daily')],
    )
    const inv = await ac('inventory lev')
    t.same(
      inv.suggestions.map((s) => s.text),
      ['Inventory levels'],
    )
    t.same(
      (await ac('pay', 10, 'id')).suggestions.map((s) => s.text),
      ['payments'],
    )
    t.equal((await ac('', 2)).suggestions.length, 2, 'the limit applies')
    t.same((await ac('zzz')).suggestions, [])
  })
}
