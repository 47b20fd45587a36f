import { InvalidInputError } from '@catalog/core'
import type { Test } from 'tap'
import { type ContractContext, ds, seed } from './contract-fixtures.js'

/** Contract cases: free text, prefixes, typos, `field:value`, `*`, several entity types, sorting, syntax errors. */
export function queryCases(t: Test, ctx: () => ContractContext): void {
  t.test('free text ranks documents matching more words first, then by field boost', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, [
      ...seed(fx),
      ...fx.dataset('alpha', { datasetProperties: { name: 'Widget registry' } }),
      ...fx.dataset('beta', { datasetProperties: { description: 'widget' } }),
    ])
    const both = await fx.urns(index, 'orders daily')
    t.equal(both[0], ds('orders_daily'), 'the document with both words comes first')
    t.ok(
      both.includes(ds('customers')) && both.includes(ds('payments', 'kafka', 'DEV')),
      'one-word matches still come',
    )
    t.same(
      new Set(await fx.urns(index, 'orders zzqqxxyy')),
      new Set([ds('orders_daily'), ds('customers')]),
      'a missing word does not empty the result',
    )
    t.same(
      await fx.urns(index, 'widget'),
      [ds('alpha'), ds('beta')],
      'a name match (boost 10) beats a description',
    )
    const page = await fx.search(index, 'orders')
    t.equal(page.hits[0]?.urn, ds('orders_daily'))
    t.ok(
      page.hits[0]?.matchedFields.some((m) => m.name === 'name' && m.value === 'Orders Daily'),
      'matchedFields names the field and value',
    )
  })
  t.test('words match as prefixes; quoted phrases match in order', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, seed(fx))
    t.same(await fx.urns(index, 'inven'), [ds('inventory_levels', 'kafka')])
    t.same(new Set(await fx.urns(index, 'ord')), new Set([ds('orders_daily'), ds('customers')]))
    t.same(await fx.urns(index, '"orders daily"'), [ds('orders_daily')])
    t.same(await fx.urns(index, '"daily orders"'), [], 'a phrase keeps word order')
    t.same(
      await fx.urns(index, 'warehouse_id'),
      [ds('inventory_levels', 'kafka')],
      'field paths are searched',
    )
  })
  t.test('typos: one from 5 characters, two from 9, none below 5', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, seed(fx))
    const inv = [ds('inventory_levels', 'kafka')]
    t.same(await fx.urns(index, 'stcok'), inv, 'a 5-letter word takes one typo (transposition)')
    t.same(await fx.urns(index, 'imventorx'), inv, 'a 9-letter word takes two typos')
    t.same(
      new Set(await fx.urns(index, 'ordres')),
      new Set([ds('orders_daily'), ds('customers')]),
      'a 6-letter word takes one typo',
    )
    t.same(await fx.urns(index, 'oxdxrs'), [], 'a 6-letter word does not take two typos')
    t.same(await fx.urns(index, 'stok'), [], 'a 4-letter word takes no typo')
    t.same(await fx.urns(index, 'skv'), [], 'a 3-letter word takes no typo')
  })
  t.test('field:value matches exactly on a searchable field', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, seed(fx))
    t.same(
      new Set(await fx.urns(index, 'tags:Legacy')),
      new Set([ds('orders_daily'), ds('inventory_levels', 'kafka')]),
      'tags expand to field tags, as DataHub filters do',
    )
    t.same(
      new Set(await fx.urns(index, 'tags:legacy')),
      new Set(await fx.urns(index, 'tags:urn:li:tag:Legacy')),
    )
    t.same(
      new Set(await fx.urns(index, 'platform:kafka')),
      new Set([ds('inventory_levels', 'kafka'), ds('payments', 'kafka', 'DEV')]),
    )
    t.same(await fx.urns(index, 'origin:DEV'), [ds('payments', 'kafka', 'DEV')])
    t.equal((await fx.urns(index, 'origin:prod')).length, 3)
    t.same(
      new Set(await fx.urns(index, 'owners:jdoe')),
      new Set([ds('orders_daily'), ds('payments', 'kafka', 'DEV')]),
    )
    t.same(await fx.urns(index, 'id:customers'), [ds('customers')])
    t.same(await fx.urns(index, 'name:orders'), [ds('orders_daily')], 'a text field matches its words')
    t.same(await fx.urns(index, ds('customers')), [ds('customers')], 'a URN finds its document')
    t.same(await fx.urns(index, 'platform:kafka AND owners:jdoe'), [ds('payments', 'kafka', 'DEV')])
    t.same(await fx.urns(index, 'platform:kafka -owners:jdoe'), [ds('inventory_levels', 'kafka')])
    t.same(
      new Set(await fx.urns(index, 'owners:jdoe OR owners:alice')),
      new Set([ds('orders_daily'), ds('customers'), ds('payments', 'kafka', 'DEV')]),
    )
    t.same(
      await fx.urns(index, 'platform:kafka stock'),
      [ds('inventory_levels', 'kafka')],
      'a field clause constrains',
    )
  })
  t.test('* matches everything; paging and totals', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, seed(fx))
    const all = await fx.search(index, '*', { count: 2 })
    t.equal(all.total, 4)
    t.equal(all.hits.length, 2)
    const rest = await fx.search(index, '*', { start: 2, count: 10 })
    t.equal(rest.hits.length, 2)
    t.same(
      new Set([...all.hits, ...rest.hits].map((h) => h.urn)),
      new Set([
        ds('orders_daily'),
        ds('customers'),
        ds('inventory_levels', 'kafka'),
        ds('payments', 'kafka', 'DEV'),
      ]),
    )
    t.equal((await fx.search(index, '*', { start: 10 })).hits.length, 0)
    t.equal((await fx.search(index, '*', { entity: 'chart' })).total, 0, 'the entity type scopes the search')
  })
  t.test('searching several entity types at once', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, [
      ...seed(fx),
      fx.upsert('urn:li:chart:(looker,orders_chart)', 'chartInfo', {
        title: 'Orders chart',
        description: 'x',
        lastModified: {
          created: { time: 0, actor: 'urn:li:corpuser:x' },
          lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
        },
      }),
    ])
    const page = await fx.search(index, 'orders', { entity: ['dataset', 'chart'] })
    t.ok(page.hits.some((h) => h.entityType === 'chart'))
    t.ok(page.hits.some((h) => h.entityType === 'dataset'))
    const types = page.facets.find((f) => f.field === '_entityType')
    t.same(Object.fromEntries(types?.values.map((v) => [v.value, v.count]) ?? []), { dataset: 2, chart: 1 })
  })
  t.test('sort by a field', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, seed(fx))
    const asc = await fx.urns(index, '*', { sort: { field: 'createdAt', order: 'ASCENDING' } })
    t.same(asc.slice(0, 3), [ds('orders_daily'), ds('customers'), ds('payments', 'kafka', 'DEV')])
    const desc = await fx.urns(index, '*', { sort: { field: 'createdAt', order: 'DESCENDING' } })
    t.same(desc.slice(0, 3), [ds('payments', 'kafka', 'DEV'), ds('customers'), ds('orders_daily')])
  })
  t.test('query syntax errors are InvalidInputError', async (t) => {
    const { fx } = ctx()
    for (const bad of [
      '"unbalanced',
      '(orders',
      'orders)',
      'name:',
      'nope:x',
      'orders AND',
      'OR orders',
      '()',
    ]) {
      t.throws(
        () => fx.requests.search({ input: bad, entityTypes: ['dataset'], start: 0, count: 1 }),
        InvalidInputError,
        bad,
      )
    }
    t.throws(
      () => fx.requests.search({ input: '*', entityTypes: ['nope'], start: 0, count: 1 }),
      InvalidInputError,
    )
    t.throws(
      () => fx.requests.search({ input: '*', entityTypes: ['dataset'], start: -1, count: 1 }),
      InvalidInputError,
    )
    t.throws(
      () => fx.requests.search({ input: '*', entityTypes: ['dataset'], start: 0, count: 10_001 }),
      InvalidInputError,
    )
  })
}
