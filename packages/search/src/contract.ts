/**
 * The search index contract: every adapter runs this suite (`runSearchContract`) and must pass
 * it unchanged. It pins merging of aspect contributions, idempotent replay and the durable
 * cursor, query semantics (ranking, prefix, typos, `field:value`, `*`), every filter
 * condition, facets, soft delete, browse paging, autocomplete and `clear()`.
 */
import { InvalidInputError } from '@catalog/core'
import type { Test } from 'tap'
import { ContractFixture, ds } from './contract-fixtures.js'
import type { SearchIndex } from './port.js'
import type { SearchSchema } from './search-schema.js'

export interface SearchIndexFactory {
  /** A fresh, empty index. */
  open(schema: SearchSchema): Promise<SearchIndex>
  /** Reopens the index last returned by `open` after it was closed (persistence), when supported. */
  reopen?(schema: SearchSchema): Promise<SearchIndex>
}

const tag = (t: string) => ({ tags: [{ tag: `urn:li:tag:${t}` }] })
const owners = (...names: string[]) => ({
  owners: names.map((n) => ({ owner: `urn:li:corpuser:${n}`, type: 'DATAOWNER' })),
})

/** A small catalog used by most tests. */
function seed(fx: ContractFixture) {
  return [
    ...fx.dataset('orders_daily', {
      datasetProperties: {
        name: 'Orders Daily',
        description: 'Daily snapshot of customer orders',
        created: { time: 1000 },
      },
      globalTags: tag('Legacy'),
      ownership: owners('jdoe'),
    }),
    ...fx.dataset('customers', {
      datasetProperties: {
        name: 'Customers',
        description: 'All customers, joined with orders nightly',
        created: { time: 2000 },
      },
      ownership: owners('alice'),
    }),
    ...fx.dataset(
      'inventory_levels',
      {
        datasetProperties: { name: 'Inventory levels', description: 'Stock per warehouse' },
        schemaMetadata: {
          schemaName: 'inventory',
          platform: 'urn:li:dataPlatform:kafka',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [
            { fieldPath: 'warehouse_id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } },
            {
              fieldPath: 'sku',
              nativeDataType: 'string',
              type: { type: { 'com.linkedin.schema.StringType': {} } },
              globalTags: tag('Legacy'),
            },
          ],
        },
      },
      'kafka',
    ),
    ...fx.dataset(
      'payments',
      {
        datasetProperties: { name: 'Payments', description: 'Card payments, settled daily', created: { time: 3000 } },
        ownership: owners('jdoe', 'alice'),
      },
      'kafka',
      'DEV',
    ),
  ]
}

export function runSearchContract(t: Test, name: string, factory: SearchIndexFactory): void {
  t.test(`${name}: search index contract`, async (t) => {
    let index: SearchIndex
    let fx: ContractFixture
    t.beforeEach(async () => {
      fx = new ContractFixture()
      index = await factory.open(fx.schema)
    })
    t.afterEach(async () => {
      await index.close()
    })

    t.test('contributions of several aspects merge into one document; deletes remove them', async (t) => {
      const urn = ds('merge_me')
      await fx.apply(index, [
        fx.upsert(urn, 'datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'merge_me', origin: 'PROD' }),
        fx.upsert(urn, 'datasetProperties', { description: 'first words' }),
        fx.upsert(urn, 'globalTags', tag('Legacy')),
        fx.upsert(urn, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:hive' }),
      ])
      let doc = await index.document(urn)
      t.equal(doc?.entityType, 'dataset')
      t.same(doc?.fields.platform, ['urn:li:dataPlatform:hive'], 'a field fed by two aspects holds the union')
      t.same(doc?.fields.id, ['merge_me'], 'key fields come from the URN')
      t.same(doc?.fields.tags, ['urn:li:tag:Legacy'])
      t.same(doc?.fields.hasTags, [true])
      t.same(doc?.aspects, ['dataPlatformInstance', 'datasetKey', 'datasetProperties', 'globalTags'])

      await fx.apply(index, [fx.upsert(urn, 'datasetProperties', { description: 'second words' })])
      doc = await index.document(urn)
      t.same(doc?.fields.description, ['second words'], 'a new value replaces the aspect contribution')
      t.same(await fx.urns(index, 'first'), [], 'the old words are gone')
      t.same(await fx.urns(index, 'second'), [urn])

      await fx.apply(index, [fx.remove(urn, 'globalTags')])
      doc = await index.document(urn)
      t.equal(doc?.fields.tags, undefined, 'deleting an aspect removes its contribution')
      t.same(doc?.fields.description, ['second words'], 'other aspects stay')
      t.same(await fx.urns(index, 'tags:Legacy'), [])

      await fx.apply(index, [fx.remove(urn, 'datasetKey', true)])
      t.equal(await index.document(urn), undefined, 'deleting the key aspect removes the document')
      t.same(await fx.urns(index, '*'), [])
    })

    t.test('applying the same entries again changes nothing; the cursor never moves back', async (t) => {
      const entries = seed(fx)
      const first = await fx.apply(index, entries)
      t.ok(first.documentsChanged >= 4)
      const before = await fx.search(index, 'orders')
      const again = await fx.apply(index, entries)
      t.equal(again.documentsChanged, 0, 'a replay rewrites no document')
      t.same(await fx.search(index, 'orders'), before)
      t.equal(await index.cursor(), entries.at(-1)?.seq)
      const back = await index.apply([], 1)
      t.equal(back.cursor, entries.at(-1)?.seq, 'an older cursor is ignored')
      t.equal(await index.cursor(), entries.at(-1)?.seq)
      t.equal((await index.stats()).documents, 4)
    })

    if (factory.reopen) {
      const reopen = factory.reopen
      t.test('documents and cursor survive a close and reopen', async (t) => {
        const entries = seed(fx)
        await fx.apply(index, entries)
        await index.close()
        index = await reopen(fx.schema)
        t.equal(await index.cursor(), entries.at(-1)?.seq)
        t.same((await fx.urns(index, 'customers')).slice(0, 1), [ds('customers')])
        t.equal((await index.stats()).documents, 4)
      })
    }

    t.test('free text ranks documents matching more words first, then by field boost', async (t) => {
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
      t.same(await fx.urns(index, 'widget'), [ds('alpha'), ds('beta')], 'a name match (boost 10) beats a description')
      const page = await fx.search(index, 'orders')
      t.equal(page.hits[0]?.urn, ds('orders_daily'))
      t.ok(
        page.hits[0]?.matchedFields.some((m) => m.name === 'name' && m.value === 'Orders Daily'),
        'matchedFields names the field and value',
      )
    })

    t.test('words match as prefixes; quoted phrases match in order', async (t) => {
      await fx.apply(index, seed(fx))
      t.same(await fx.urns(index, 'inven'), [ds('inventory_levels', 'kafka')])
      t.same(new Set(await fx.urns(index, 'ord')), new Set([ds('orders_daily'), ds('customers')]))
      t.same(await fx.urns(index, '"orders daily"'), [ds('orders_daily')])
      t.same(await fx.urns(index, '"daily orders"'), [], 'a phrase keeps word order')
      t.same(await fx.urns(index, 'warehouse_id'), [ds('inventory_levels', 'kafka')], 'field paths are searched')
    })

    t.test('typos: one from 5 characters, two from 9, none below 5', async (t) => {
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
      await fx.apply(index, seed(fx))
      t.same(
        new Set(await fx.urns(index, 'tags:Legacy')),
        new Set([ds('orders_daily'), ds('inventory_levels', 'kafka')]),
        'tags expand to field tags, as DataHub filters do',
      )
      t.same(new Set(await fx.urns(index, 'tags:legacy')), new Set(await fx.urns(index, 'tags:urn:li:tag:Legacy')))
      t.same(
        new Set(await fx.urns(index, 'platform:kafka')),
        new Set([ds('inventory_levels', 'kafka'), ds('payments', 'kafka', 'DEV')]),
      )
      t.same(await fx.urns(index, 'origin:DEV'), [ds('payments', 'kafka', 'DEV')])
      t.equal((await fx.urns(index, 'origin:prod')).length, 3)
      t.same(new Set(await fx.urns(index, 'owners:jdoe')), new Set([ds('orders_daily'), ds('payments', 'kafka', 'DEV')]))
      t.same(await fx.urns(index, 'id:customers'), [ds('customers')])
      t.same(await fx.urns(index, 'name:orders'), [ds('orders_daily')], 'a text field matches its words')
      t.same(await fx.urns(index, ds('customers')), [ds('customers')], 'a URN finds its document')
      t.same(await fx.urns(index, 'platform:kafka AND owners:jdoe'), [ds('payments', 'kafka', 'DEV')])
      t.same(await fx.urns(index, 'platform:kafka -owners:jdoe'), [ds('inventory_levels', 'kafka')])
      t.same(
        new Set(await fx.urns(index, 'owners:jdoe OR owners:alice')),
        new Set([ds('orders_daily'), ds('customers'), ds('payments', 'kafka', 'DEV')]),
      )
      t.same(await fx.urns(index, 'platform:kafka stock'), [ds('inventory_levels', 'kafka')], 'a field clause constrains')
    })

    t.test('* matches everything; paging and totals', async (t) => {
      await fx.apply(index, seed(fx))
      const all = await fx.search(index, '*', { count: 2 })
      t.equal(all.total, 4)
      t.equal(all.hits.length, 2)
      const rest = await fx.search(index, '*', { start: 2, count: 10 })
      t.equal(rest.hits.length, 2)
      t.same(
        new Set([...all.hits, ...rest.hits].map((h) => h.urn)),
        new Set([ds('orders_daily'), ds('customers'), ds('inventory_levels', 'kafka'), ds('payments', 'kafka', 'DEV')]),
      )
      t.equal((await fx.search(index, '*', { start: 10 })).hits.length, 0)
      t.equal((await fx.search(index, '*', { entity: 'chart' })).total, 0, 'the entity type scopes the search')
    })

    t.test('filters: every condition, value or values, negated, expansions', async (t) => {
      await fx.apply(index, [
        ...seed(fx),
        ...fx.dataset('edited', {
          editableDatasetProperties: { description: 'curated by hand' },
        }),
      ])
      const f = async (field: string, condition: string | undefined, value: unknown, negated = false) =>
        new Set(
          await fx.urns(index, '*', {
            filter: {
              or: [
                {
                  and: [
                    {
                      field,
                      ...(condition ? { condition } : {}),
                      ...(Array.isArray(value) ? { values: value } : value === undefined ? {} : { value: value as string }),
                      ...(negated ? { negated: true } : {}),
                    },
                  ],
                },
              ],
            },
          }),
        )
      const [od, cu, inv, pay, ed] = [
        ds('orders_daily'),
        ds('customers'),
        ds('inventory_levels', 'kafka'),
        ds('payments', 'kafka', 'DEV'),
        ds('edited'),
      ]
      t.same(await f('platform', undefined, 'urn:li:dataPlatform:kafka'), new Set([inv, pay]), 'EQUAL is the default')
      t.same(await f('platform', 'EQUAL', ['urn:li:dataPlatform:kafka']), new Set([inv, pay]), 'values')
      t.same(await f('origin', 'EQUAL', 'PROD,DEV'), new Set([od, cu, inv, pay, ed]), 'a comma list in value')
      t.same(await f('origin', 'EQUAL', 'prod'), new Set(), 'EQUAL is case-sensitive')
      t.same(await f('origin', 'IEQUAL', 'prod'), new Set([od, cu, inv, ed]))
      t.same(await f('env', 'EQUAL', 'DEV'), new Set([pay]), 'env expands to origin')
      t.same(await f('platform', 'EQUAL', 'urn:li:dataPlatform:kafka', true), new Set([od, cu, ed]), 'negated')
      t.same(await f('name', 'CONTAIN', 'ORDERS'), new Set([od]), 'CONTAIN ignores case')
      t.same(await f('name', 'START_WITH', 'cust'), new Set([cu]))
      t.same(await f('name', 'END_WITH', 'levels'), new Set([inv]))
      t.same(await f('createdAt', 'GREATER_THAN', '1000'), new Set([cu, pay]))
      t.same(await f('createdAt', 'GREATER_THAN_OR_EQUAL_TO', '2000'), new Set([cu, pay]))
      t.same(await f('createdAt', 'LESS_THAN', '2000'), new Set([od]))
      t.same(await f('createdAt', 'LESS_THAN_OR_EQUAL_TO', '2000'), new Set([od, cu]))
      t.same(await f('owners', 'IN', ['urn:li:corpuser:alice', 'urn:li:corpuser:nobody']), new Set([cu, pay]))
      t.same(await f('tags', 'EXISTS', undefined), new Set([od, inv]), 'tags expand to field tags')
      t.same(await f('owners', 'IS_NULL', undefined), new Set([inv, ed]))
      t.same(await f('description', 'CONTAIN', 'curated'), new Set([ed]), 'description covers editedDescription')
      t.same(await f('_entityType', 'EQUAL', 'DATASET'), new Set([od, cu, inv, pay, ed]))
      t.same(await f('urn', 'EQUAL', cu), new Set([cu]))
      const or = await fx.urns(index, '*', {
        filter: {
          or: [
            { and: [{ field: 'origin', value: 'DEV' }] },
            { and: [{ field: 'owners', value: 'urn:li:corpuser:jdoe' }, { field: 'platform', value: 'urn:li:dataPlatform:hive' }] },
          ],
        },
      })
      t.same(new Set(or), new Set([pay, od]), 'OR of AND groups')
      t.throws(() => fx.requests.search({ input: '*', entityTypes: ['dataset'], start: 0, count: 1, filter: { or: [{ and: [{ field: 'nope', value: 'x' }] }] } }), InvalidInputError)
      t.throws(() => fx.requests.search({ input: '*', entityTypes: ['dataset'], start: 0, count: 1, filter: { or: [{ and: [{ field: 'origin', value: 'x', condition: 'LIKE' }] }] } }), InvalidInputError)
    })

    t.test('facets count every hit, not the page', async (t) => {
      await fx.apply(index, seed(fx))
      const page = await fx.search(index, '*', { count: 1 })
      const facet = (name: string) =>
        Object.fromEntries(page.facets.find((f) => f.field === name)?.values.map((v) => [v.value, v.count]) ?? [])
      t.same(facet('platform'), { 'urn:li:dataPlatform:hive': 2, 'urn:li:dataPlatform:kafka': 2 })
      t.same(facet('origin'), { PROD: 3, DEV: 1 })
      t.same(facet('owners'), { 'urn:li:corpuser:jdoe': 2, 'urn:li:corpuser:alice': 2 })
      t.same(facet('_entityType'), { dataset: 4 })
      t.equal(page.facets.find((f) => f.field === 'origin')?.displayName, 'Environment')
      t.equal(page.facets.find((f) => f.field === 'origin')?.values[0]?.value, 'PROD', 'buckets by count')
      const filtered = await fx.search(index, 'orders', { count: 1, filter: { or: [{ and: [{ field: 'origin', value: 'PROD' }] }] } })
      t.same(
        Object.fromEntries(filtered.facets.find((f) => f.field === 'platform')?.values.map((v) => [v.value, v.count]) ?? []),
        { 'urn:li:dataPlatform:hive': 2 },
        'facets follow the query and the filter',
      )
    })

    t.test('soft-deleted documents are hidden unless the filter names removed', async (t) => {
      await fx.apply(index, [...seed(fx), fx.upsert(ds('customers'), 'status', { removed: true })])
      t.notOk((await fx.urns(index, 'customers')).includes(ds('customers')), 'search')
      t.equal((await fx.search(index, '*')).total, 3)
      const ac = await index.autocomplete(fx.requests.autocomplete({ query: 'Custo', entityType: 'dataset', limit: 5 }))
      t.same(ac.suggestions, [], 'autocomplete')
      const removed = await fx.urns(index, '*', { filter: { or: [{ and: [{ field: 'removed', value: 'true' }] }] } })
      t.same(removed, [ds('customers')], 'a filter on removed finds it')
      t.equal((await fx.search(index, '*', { includeSoftDeleted: true })).total, 4)
      await fx.apply(index, [fx.upsert(ds('customers'), 'status', { removed: false })])
      t.equal((await fx.urns(index, 'customers'))[0], ds('customers'), 'restored')
    })

    t.test('browse: entities at the path, groups below it, totals and paging', async (t) => {
      const b = (n: number, paths: string[]) =>
        fx.dataset(`test-browse-${n}`, { browsePaths: { paths }, datasetProperties: { name: `b${n}` } }, 'kafka')
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
    })

    t.test('autocomplete suggests values of autocomplete fields by prefix', async (t) => {
      await fx.apply(index, seed(fx))
      const ac = (query: string, limit = 10, field?: string) =>
        index.autocomplete(
          fx.requests.autocomplete({ query, entityType: 'dataset', limit, ...(field ? { field } : {}) }),
        )
      const orders = await ac('Ord')
      t.same(orders.suggestions.map((s) => s.text), ['Orders Daily'])
      t.same(orders.suggestions.map((s) => s.urn), [ds('orders_daily')])
      const inv = await ac('inventory lev')
      t.same(inv.suggestions.map((s) => s.text), ['Inventory levels'])
      t.same((await ac('pay', 10, 'id')).suggestions.map((s) => s.text), ['payments'])
      t.equal((await ac('', 2)).suggestions.length, 2, 'the limit applies')
      t.same((await ac('zzz')).suggestions, [])
    })

    t.test('searching several entity types at once', async (t) => {
      await fx.apply(index, [
        ...seed(fx),
        fx.upsert('urn:li:chart:(looker,orders_chart)', 'chartInfo', {
          title: 'Orders chart',
          description: 'x',
          lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
        }),
      ])
      const page = await fx.search(index, 'orders', { entity: ['dataset', 'chart'] })
      t.ok(page.hits.some((h) => h.entityType === 'chart'))
      t.ok(page.hits.some((h) => h.entityType === 'dataset'))
      const types = page.facets.find((f) => f.field === '_entityType')
      t.same(Object.fromEntries(types?.values.map((v) => [v.value, v.count]) ?? []), { dataset: 2, chart: 1 })
    })

    t.test('sort by a field', async (t) => {
      await fx.apply(index, seed(fx))
      const asc = await fx.urns(index, '*', { sort: { field: 'createdAt', order: 'ASCENDING' } })
      t.same(asc.slice(0, 3), [ds('orders_daily'), ds('customers'), ds('payments', 'kafka', 'DEV')])
      const desc = await fx.urns(index, '*', { sort: { field: 'createdAt', order: 'DESCENDING' } })
      t.same(desc.slice(0, 3), [ds('payments', 'kafka', 'DEV'), ds('customers'), ds('orders_daily')])
    })

    t.test('query syntax errors are InvalidInputError', async (t) => {
      for (const bad of ['"unbalanced', '(orders', 'orders)', 'name:', 'nope:x', 'orders AND', 'OR orders', '()']) {
        t.throws(
          () => fx.requests.search({ input: bad, entityTypes: ['dataset'], start: 0, count: 1 }),
          InvalidInputError,
          bad,
        )
      }
      t.throws(() => fx.requests.search({ input: '*', entityTypes: ['nope'], start: 0, count: 1 }), InvalidInputError)
      t.throws(() => fx.requests.search({ input: '*', entityTypes: ['dataset'], start: -1, count: 1 }), InvalidInputError)
      t.throws(() => fx.requests.search({ input: '*', entityTypes: ['dataset'], start: 0, count: 10_001 }), InvalidInputError)
    })

    t.test('clear() wipes documents and keeps the cursor', async (t) => {
      const entries = seed(fx)
      await fx.apply(index, entries)
      await index.clear()
      t.equal((await index.stats()).documents, 0)
      t.same(await fx.urns(index, '*'), [])
      t.same(await fx.urns(index, 'orders'), [])
      t.equal(await index.cursor(), entries.at(-1)?.seq, 'the cursor stays')
      await fx.apply(index, entries)
      t.equal((await index.stats()).documents, 4, 're-announced values rebuild it')
      t.same((await fx.urns(index, 'stcok')).length, 1, 'typo matching works after a rebuild')
    })
  })
}
