import type { Test } from 'tap'
import { type ContractContext, ds } from './contract-fixtures.js'
import type { BrowseV2Params } from './request-builder.js'

const DB = 'urn:li:container:db'
const SCHEMA = 'urn:li:container:schema'
const entry = (id: string) => (id.startsWith('urn:') ? { id, urn: id } : { id })
const pathOf = (...ids: string[]) => ({ path: ids.map(entry) })

/** Contract cases: browseV2 over `browsePathsV2` (groups, counts, sub-groups, paging, query, filters). */
export function browseV2Cases(t: Test, ctx: () => ContractContext): void {
  t.test('browseV2: next-level groups of browsePathsV2 with counts and sub-groups', async (t) => {
    const { index, fx } = ctx()
    const table = (name: string, platform: string, ...ids: string[]) =>
      fx.dataset(name, { browsePathsV2: pathOf(...ids), datasetProperties: { name } }, platform)
    await fx.apply(index, [
      fx.upsert(DB, 'containerProperties', { name: 'db' }),
      fx.upsert(DB, 'browsePathsV2', { path: [] }),
      fx.upsert(SCHEMA, 'containerProperties', { name: 'schema' }),
      fx.upsert(SCHEMA, 'browsePathsV2', pathOf(DB)),
      ...table('db.schema.orders', 'hive', DB, SCHEMA),
      ...table('db.schema.payments', 'hive', DB, SCHEMA),
      ...table('db.loose', 'hive', DB),
      ...table('topic.a', 'kafka', 'prod', 'kafka'),
      ...table('topic.b', 'kafka', 'prod', 'kafka'),
      ...table('topic.gone', 'kafka', 'prod', 'kafka'),
      fx.upsert(ds('topic.gone', 'kafka'), 'status', { removed: true }),
      ...fx.dataset('no_v2_path', { datasetProperties: { name: 'no path' } }),
      // Its default browsePathsV2 removed: a document without one is not browsed.
      fx.remove(ds('no_v2_path'), 'browsePathsV2'),
    ])
    const browse = (p: Partial<BrowseV2Params>) =>
      index.browseV2(
        fx.requests.browseV2({ entityTypes: ['dataset'], path: [], input: '*', start: 0, count: 10, ...p }),
      )

    t.same(await browse({}), {
      groups: [
        { name: DB, count: 3, hasSubGroups: true },
        { name: 'prod', count: 2, hasSubGroups: true },
      ],
      numGroups: 2,
      totalNumEntities: 5,
    })
    t.same(
      await browse({ path: [DB] }),
      { groups: [{ name: SCHEMA, count: 2, hasSubGroups: false }], numGroups: 1, totalNumEntities: 2 },
      'a document exactly at the path is no group and not counted',
    )
    t.same((await browse({ path: [DB, SCHEMA] })).groups, [])
    t.same((await browse({ path: ['nope'] })).totalNumEntities, 0)
    t.same((await browse({ path: ['prod', 'kafka'] })).totalNumEntities, 0)

    const both = await browse({ entityTypes: ['dataset', 'container'], path: [] })
    t.same(both.groups[0], { name: DB, count: 4, hasSubGroups: true }, 'containers are browsed too')
    t.same(
      await browse({ start: 1, count: 1 }),
      { groups: [{ name: 'prod', count: 2, hasSubGroups: true }], numGroups: 2, totalNumEntities: 5 },
      'paging slices the groups',
    )
    t.same((await browse({ start: 5 })).groups, [])
    t.same((await browse({ count: 0 })).numGroups, 2)

    const kafka = await browse({
      filter: { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:kafka' }] }] },
    })
    t.same([kafka.groups, kafka.totalNumEntities], [[{ name: 'prod', count: 2, hasSubGroups: true }], 2])
    const orders = await browse({ input: 'orders' })
    t.same([orders.groups, orders.totalNumEntities], [[{ name: DB, count: 1, hasSubGroups: true }], 1])
    const removed = await browse({ includeSoftDeleted: true })
    t.same(
      removed.groups,
      [
        { name: 'prod', count: 3, hasSubGroups: true },
        { name: DB, count: 3, hasSubGroups: true },
      ],
      'soft-deleted documents when asked; equal counts by name',
    )

    const D = '\u241F'
    const under = (...values: string[]) =>
      fx.urns(index, '*', { filter: { or: [{ and: [{ field: 'browsePathV2', values }] }] } })
    t.same(
      await under(`${D}${DB}`),
      [ds('db.loose'), ds('db.schema.orders'), ds('db.schema.payments')],
      'a browsePathV2 filter matches the node and every path under it',
    )
    t.same(await under(`${D}${DB}${D}${SCHEMA}`), [ds('db.schema.orders'), ds('db.schema.payments')])
    t.same(await under(`${D}urn:li:container:d`), [], 'whole entries only')
    t.same(await under(`${D}prod${D}kafka`, `${D}${DB}${D}${SCHEMA}`), [
      ds('db.schema.orders'),
      ds('db.schema.payments'),
      ds('topic.a', 'kafka'),
      ds('topic.b', 'kafka'),
    ])

    await fx.apply(index, [fx.upsert(ds('db.loose'), 'browsePathsV2', pathOf('prod'))])
    t.same(
      (await browse({})).groups,
      [
        { name: 'prod', count: 3, hasSubGroups: true },
        { name: DB, count: 2, hasSubGroups: true },
      ],
      'a new path moves the document',
    )
    await fx.apply(index, [fx.remove(ds('db.loose'), 'browsePathsV2')])
    t.same((await browse({ path: ['prod'] })).totalNumEntities, 2, 'a deleted path leaves browseV2')
  })
}
