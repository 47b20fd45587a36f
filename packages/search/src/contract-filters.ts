import { InvalidInputError } from '@catalog/core'
import type { Test } from 'tap'
import { type ContractContext, ds, seed } from './contract-fixtures.js'

/** Contract cases: every filter condition, field expansions, facets. */
export function filterCases(t: Test, ctx: () => ContractContext): void {
  t.test('filters: every condition, value or values, negated, expansions', async (t) => {
    const { index, fx } = ctx()
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
                    ...(Array.isArray(value)
                      ? { values: value }
                      : value === undefined
                        ? {}
                        : { value: value as string }),
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
    t.same(
      await f('platform', undefined, 'urn:li:dataPlatform:kafka'),
      new Set([inv, pay]),
      'EQUAL is the default',
    )
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
    t.same(
      await f('description', 'CONTAIN', 'curated'),
      new Set([ed]),
      'description covers editedDescription',
    )
    t.same(await f('_entityType', 'EQUAL', 'DATASET'), new Set([od, cu, inv, pay, ed]))
    t.same(await f('urn', 'EQUAL', cu), new Set([cu]))
    const or = await fx.urns(index, '*', {
      filter: {
        or: [
          { and: [{ field: 'origin', value: 'DEV' }] },
          {
            and: [
              { field: 'owners', value: 'urn:li:corpuser:jdoe' },
              { field: 'platform', value: 'urn:li:dataPlatform:hive' },
            ],
          },
        ],
      },
    })
    t.same(new Set(or), new Set([pay, od]), 'OR of AND groups')
    t.throws(
      () =>
        fx.requests.search({
          input: '*',
          entityTypes: ['dataset'],
          start: 0,
          count: 1,
          filter: { or: [{ and: [{ field: 'nope', value: 'x' }] }] },
        }),
      InvalidInputError,
    )
    t.throws(
      () =>
        fx.requests.search({
          input: '*',
          entityTypes: ['dataset'],
          start: 0,
          count: 1,
          filter: { or: [{ and: [{ field: 'origin', value: 'x', condition: 'LIKE' }] }] },
        }),
      InvalidInputError,
    )
  })
  t.test('facets count every hit, not the page', async (t) => {
    const { index, fx } = ctx()
    await fx.apply(index, seed(fx))
    const page = await fx.search(index, '*', { count: 1 })
    const facet = (name: string) =>
      Object.fromEntries(
        page.facets.find((f) => f.field === name)?.values.map((v) => [v.value, v.count]) ?? [],
      )
    t.same(facet('platform'), { 'urn:li:dataPlatform:hive': 2, 'urn:li:dataPlatform:kafka': 2 })
    t.same(facet('origin'), { PROD: 3, DEV: 1 })
    t.same(facet('owners'), { 'urn:li:corpuser:jdoe': 2, 'urn:li:corpuser:alice': 2 })
    t.same(facet('_entityType'), { dataset: 4 })
    t.equal(page.facets.find((f) => f.field === 'origin')?.displayName, 'Environment')
    t.equal(page.facets.find((f) => f.field === 'origin')?.values[0]?.value, 'PROD', 'buckets by count')
    const filtered = await fx.search(index, 'orders', {
      count: 1,
      filter: { or: [{ and: [{ field: 'origin', value: 'PROD' }] }] },
    })
    t.same(
      Object.fromEntries(
        filtered.facets.find((f) => f.field === 'platform')?.values.map((v) => [v.value, v.count]) ?? [],
      ),
      { 'urn:li:dataPlatform:hive': 2 },
      'facets follow the query and the filter',
    )
  })
}
