import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** batchAddToDataProducts, batchRemoveFromDataProducts, listDataProductAssets, DataProduct.entities. */

const DOMAIN = 'urn:li:domain:marketing'
const ds = (n: number | string) => `urn:li:dataset:(urn:li:dataPlatform:hive,asset_${n},PROD)`
const CHART = 'urn:li:chart:(looker,asset_chart)'
const P1 = 'urn:li:dataProduct:p1'
const P2 = 'urn:li:dataProduct:p2'

async function seed(app: CatalogServer, datasets = 4): Promise<void> {
  await ingestAspect(app, 'domain', DOMAIN, 'domainProperties', { name: 'Marketing' })
  for (let i = 0; i < datasets; i++) {
    await ingestAspect(app, 'dataset', ds(i), 'datasetProperties', {
      name: `asset_${i}`,
      customProperties: {},
    })
  }
  await ingestAspect(app, 'chart', CHART, 'chartInfo', {
    title: 'Asset chart',
    description: '',
    lastModified: {
      created: { time: 0, actor: 'urn:li:corpuser:x' },
      lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
    },
    customProperties: {},
  })
  for (const id of ['p1', 'p2']) {
    const res = await gql(
      app,
      'mutation($i: CreateDataProductInput!) { createDataProduct(input: $i) { urn } }',
      { i: { id, domainUrn: DOMAIN, properties: { name: id } } },
    )
    if (!res.data?.createDataProduct) throw new Error(JSON.stringify(res))
  }
}

const ADD =
  'mutation($p: [String!]!, $r: [String!]!) { batchAddToDataProducts(input: {dataProductUrns: $p, resourceUrns: $r}) }'
const REMOVE =
  'mutation($p: [String!]!, $r: [String!]!) { batchRemoveFromDataProducts(input: {dataProductUrns: $p, resourceUrns: $r}) }'

/** The assets of a data product as stored (REST), sorted. */
async function assets(app: CatalogServer, product: string): Promise<string[]> {
  const props = (await restAspects(app, product)).dataProductProperties?.value
  return (props?.assets ?? []).map((a: { destinationUrn: string }) => a.destinationUrn).sort()
}

const LIST = `query($u: String!, $i: SearchAcrossEntitiesInput!) { listDataProductAssets(urn: $u, input: $i) {
  start count total searchResults { entity { urn type } } } }`

async function listed(app: CatalogServer, urn: string, input: Record<string, unknown>) {
  const res = await gql(app, LIST, { u: urn, i: input })
  if (!res.data?.listDataProductAssets) throw new Error(JSON.stringify(res))
  const page = res.data.listDataProductAssets
  return { ...page, urns: page.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort() }
}

t.test('batchAddToDataProducts puts assets in several products; batchRemove takes them out', async (t) => {
  const { app } = await build(t)
  await seed(app)
  t.same(await gql(app, ADD, { p: [P1, P2], r: [ds(0), ds(1)] }), { data: { batchAddToDataProducts: true } })
  t.same(await assets(app, P1), [ds(0), ds(1)])
  t.same(await assets(app, P2), [ds(0), ds(1)], 'an asset may be in two products')
  const stamp = (await restAspects(app, P1)).dataProductProperties?.value.assets[0].created
  t.match(stamp, { actor: 'urn:li:corpuser:datahub', time: Number })

  await gql(app, ADD, { p: [P1], r: [ds(0), ds(2)] })
  t.same(await assets(app, P1), [ds(0), ds(1), ds(2)], 'kept and added')
  t.same(
    (await restAspects(app, P1)).dataProductProperties?.value.assets[0].created,
    stamp,
    'an asset already held keeps its stamp',
  )
  const numAssets = await gql(app, `{ dataProduct(urn: "${P1}") { properties { numAssets } } }`)
  t.equal(numAssets.data.dataProduct.properties.numAssets, 3)

  t.same(await gql(app, REMOVE, { p: [P1, P2], r: [ds(0), ds(3)] }), {
    data: { batchRemoveFromDataProducts: true },
  })
  t.same(await assets(app, P1), [ds(1), ds(2)], 'removed; an asset not held is no error')
  t.same(await assets(app, P2), [ds(1)])
  const edges = await gql(
    app,
    `{ dataset(urn: "${ds(1)}") { relationships(input: {types: ["DataProductContains"], direction: INCOMING}) { total } } }`,
  )
  t.equal(edges.data.dataset.relationships.total, 2, 'both products hold ds(1) in the graph')
})

t.test('concurrent batchAddToDataProducts and batchRemove lose nothing', async (t) => {
  const { app } = await build(t)
  await seed(app, 12)
  await gql(app, ADD, { p: [P1], r: [ds(0), ds(1)] })
  const calls = [
    ...Array.from({ length: 10 }, (_, i) => gql(app, ADD, { p: [P1], r: [ds(i + 2)] })),
    gql(app, REMOVE, { p: [P1], r: [ds(0)] }),
    gql(app, REMOVE, { p: [P1], r: [ds(0)] }),
  ]
  for (const res of await Promise.all(calls)) t.notOk(res.errors, JSON.stringify(res.errors))
  t.same(await assets(app, P1), [ds(1), ...Array.from({ length: 10 }, (_, i) => ds(i + 2))].sort())
})

t.test('bad input gets DataHub errors and writes nothing', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await gql(app, ADD, { p: [P1], r: [ds(0)] })
  const before = await snapshot(app, P1)
  const cases: [Record<string, unknown>, string, string][] = [
    [
      { p: [P1], r: [ds(1), ds('missing')] },
      'batchAddToDataProducts',
      `Failed to update data products, resource ${ds('missing')} does not exist`,
    ],
    [
      { p: [P1, 'urn:li:dataProduct:nope'], r: [ds(1)] },
      'batchAddToDataProducts',
      'Failed to update data products, data product urn:li:dataProduct:nope does not exist',
    ],
    [
      { p: [ds(2)], r: [ds(1)] },
      'batchAddToDataProducts',
      `Failed to update data products, data product ${ds(2)} does not exist`,
    ],
    [
      { p: [P1, 'urn:li:dataProduct:nope'], r: [ds(0)] },
      'batchRemoveFromDataProducts',
      'Failed to update data products, data product urn:li:dataProduct:nope does not exist',
    ],
  ]
  for (const [variables, field, message] of cases) {
    const res = await gql(app, field === 'batchAddToDataProducts' ? ADD : REMOVE, variables)
    t.same(badRequest(res, field), { message, code: 400, type: 'BAD_REQUEST' }, message)
  }
  const malformed = await gql(app, ADD, { p: [P1], r: ['not-a-urn'] })
  t.match(badRequest(malformed, 'batchAddToDataProducts'), { code: 400, type: 'BAD_REQUEST' })
  t.equal(await snapshot(app, P1), before, 'nothing written')
})

t.test('listDataProductAssets and DataProduct.entities search the assets only', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const empty = await listed(app, P1, { query: '*' })
  t.same(empty, { start: 0, count: 10, total: 0, searchResults: [], urns: [] }, 'no assets: an empty page')

  await gql(app, ADD, { p: [P1], r: [ds(0), ds(1), CHART] })
  await gql(app, ADD, { p: [P2], r: [ds(2)] })
  const all = await listed(app, P1, { query: '*' })
  t.equal(all.total, 3)
  t.same(all.urns, [CHART, ds(0), ds(1)].sort(), 'only its assets, of every asset type')

  const datasets = await listed(app, P1, { query: '*', types: ['DATASET'] })
  t.same(datasets.urns, [ds(0), ds(1)].sort(), 'types narrow the search')
  const queried = await listed(app, P1, { query: 'asset_1' })
  t.same(queried.urns, [ds(1)], 'the query narrows the search')
  const filtered = await listed(app, P1, {
    query: '*',
    orFilters: [{ and: [{ field: '_entityType', values: ['CHART'] }] }],
  })
  t.same(filtered.urns, [CHART], 'filters narrow the search')
  const paged = await listed(app, P1, { query: '*', start: 1, count: 1 })
  t.same([paged.start, paged.count, paged.total, paged.urns.length], [1, 1, 3, 1], 'paged')

  const field = await gql(
    app,
    `{ dataProduct(urn: "${P2}") { entities(input: {query: "*"}) { total searchResults { entity { urn } } } } }`,
  )
  t.same(field.data.dataProduct.entities, { total: 1, searchResults: [{ entity: { urn: ds(2) } }] })

  await gql(app, REMOVE, { p: [P1], r: [ds(0)] })
  t.same((await listed(app, P1, { query: '*' })).urns, [CHART, ds(1)].sort(), 'follows removals')
})

t.test('a Reader may not add or remove assets; nothing is written', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DOMAIN, 'domainProperties', { name: 'Marketing' })
  await adminWrite(built, ds(0), 'datasetProperties', { name: 'asset_0', customProperties: {} })
  const created = await gqlAs(
    built.app,
    built.adminToken,
    'mutation { createDataProduct(input: {id: "p1", domainUrn: "urn:li:domain:marketing", properties: {name: "p1"}}) { urn } }',
  )
  t.equal(created.body.data.createDataProduct.urn, P1)
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const before = await aspectOf(built, P1, 'dataProductProperties')
  for (const [name, query] of [
    ['batchAddToDataProducts', ADD],
    ['batchRemoveFromDataProducts', REMOVE],
  ] as const) {
    const res = await gqlAs(built.app, token, query, { p: [P1], r: [ds(0)] })
    t.equal(res.status, 200)
    t.same(res.body.data, { [name]: null }, `${name}: no data`)
    t.match(res.body.errors?.[0], { path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  t.same(await aspectOf(built, P1, 'dataProductProperties'), before, 'p1 unchanged')
  const admin = await gqlAs(built.app, built.adminToken, ADD, { p: [P1], r: [ds(0)] })
  t.same(admin.body, { data: { batchAddToDataProducts: true } }, 'the admin may')
})
