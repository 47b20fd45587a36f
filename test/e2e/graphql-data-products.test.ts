import { ROOT_ACTOR } from '@catalog/core'
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, restAspects, snapshot } from '../helpers/mutation-kit.js'

/** createDataProduct, updateDataProduct, deleteDataProduct, batchSetDataProduct. */

const DOMAIN = 'urn:li:domain:marketing'
const ds = (n: number | string) => `urn:li:dataset:(urn:li:dataPlatform:hive,dp_${n},PROD)`
const MISSING = ds('missing')

async function seed(app: CatalogServer, datasets = 3): Promise<void> {
  await ingestAspect(app, 'domain', DOMAIN, 'domainProperties', { name: 'Marketing' })
  for (let i = 0; i < datasets; i++) {
    await ingestAspect(app, 'dataset', ds(i), 'datasetProperties', { name: `dp_${i}`, customProperties: {} })
  }
}

const CREATE = `mutation($input: CreateDataProductInput!) { createDataProduct(input: $input) {
  urn type properties { name description numAssets } domain { domain { urn } }
  ownership { owners { owner { ... on CorpUser { urn } } type } } } }`

async function create(app: CatalogServer, id: string, name = id) {
  const res = await gql(app, CREATE, {
    input: { id, domainUrn: DOMAIN, properties: { name, description: `${name} data` } },
  })
  return res
}

const setProduct = (app: CatalogServer, product: string | null, resources: string[]) =>
  gql(
    app,
    'mutation($p: String, $r: [String!]!) { batchSetDataProduct(input: {dataProductUrn: $p, resourceUrns: $r}) }',
    {
      p: product,
      r: resources,
    },
  )

/** The assets of a data product as stored (REST), sorted. */
async function assets(app: CatalogServer, product: string): Promise<string[]> {
  const props = (await restAspects(app, product)).dataProductProperties?.value
  return (props?.assets ?? []).map((a: { destinationUrn: string }) => a.destinationUrn).sort()
}

/** `entityExists` over GraphQL. */
async function exists(app: CatalogServer, urn: string): Promise<boolean> {
  return (await gql(app, 'query($u: String!) { entityExists(urn: $u) }', { u: urn })).data.entityExists
}

/** The data products holding a dataset, over GraphQL (incoming DataProductContains edges). */
async function productsOf(app: CatalogServer, dataset: string): Promise<string[]> {
  const res = await gql(
    app,
    `query($u: String!) { dataset(urn: $u) { relationships(input: {types: ["DataProductContains"], direction: INCOMING}) {
      total relationships { entity { urn } } } } }`,
    { u: dataset },
  )
  return res.data.dataset.relationships.relationships
    .map((r: { entity: { urn: string } }) => r.entity.urn)
    .sort()
}

t.test('createDataProduct writes properties, domain and the creator as owner', async (t) => {
  const { app } = await build(t)
  await seed(app)
  const res = await create(app, 'campaigns', 'Campaigns')
  t.same(res.data.createDataProduct, {
    urn: 'urn:li:dataProduct:campaigns',
    type: 'DATA_PRODUCT',
    properties: { name: 'Campaigns', description: 'Campaigns data', numAssets: 0 },
    domain: { domain: { urn: DOMAIN } },
    ownership: { owners: [{ owner: { urn: ROOT_ACTOR }, type: 'TECHNICAL_OWNER' }] },
  })
  const stored = await restAspects(app, 'urn:li:dataProduct:campaigns')
  t.same(stored.dataProductProperties?.value, { name: 'Campaigns', description: 'Campaigns data' })
  t.same(stored.domains?.value, { domains: [DOMAIN] })

  const generated = await gql(app, CREATE, { input: { domainUrn: DOMAIN, properties: { name: 'No id' } } })
  t.match(generated.data.createDataProduct.urn, /^urn:li:dataProduct:[0-9a-f-]{36}$/, 'a UUID without an id')

  const before = await snapshot(app, 'urn:li:dataProduct:campaigns')
  t.same(badRequest(await create(app, 'campaigns', 'Again'), 'createDataProduct'), {
    message: 'This Data product already exists!',
    code: 400,
    type: 'BAD_REQUEST',
  })
  t.equal(await snapshot(app, 'urn:li:dataProduct:campaigns'), before, 'the existing product is untouched')
  for (const domainUrn of ['urn:li:domain:nowhere', ds(0)]) {
    const bad = await gql(app, CREATE, { input: { id: 'orphan', domainUrn, properties: { name: 'x' } } })
    t.same(badRequest(bad, 'createDataProduct'), {
      message: 'The Domain provided dos not exist',
      code: 400,
      type: 'BAD_REQUEST',
    })
  }
  t.equal(await exists(app, 'urn:li:dataProduct:orphan'), false, 'nothing written')
})

t.test('updateDataProduct replaces what is given and keeps the rest', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await create(app, 'p1')
  await setProduct(app, 'urn:li:dataProduct:p1', [ds(0)])
  const res = await gql(
    app,
    'mutation { updateDataProduct(urn: "urn:li:dataProduct:p1", input: {name: "Renamed"}) { urn properties { name description numAssets } } }',
  )
  t.same(res.data.updateDataProduct, {
    urn: 'urn:li:dataProduct:p1',
    properties: { name: 'Renamed', description: 'p1 data', numAssets: 1 },
  })
  t.same(await assets(app, 'urn:li:dataProduct:p1'), [ds(0)], 'assets kept')
  const missing = await gql(
    app,
    'mutation { updateDataProduct(urn: "urn:li:dataProduct:nope", input: {name: "x"}) { urn } }',
  )
  t.same(badRequest(missing, 'updateDataProduct'), {
    message: 'The Data Product provided dos not exist',
    code: 400,
    type: 'BAD_REQUEST',
  })
})

t.test('batchSetDataProduct: an asset belongs to at most one data product', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await create(app, 'p1')
  await create(app, 'p2')
  const [p1, p2] = ['urn:li:dataProduct:p1', 'urn:li:dataProduct:p2']
  t.same(await setProduct(app, p1, [ds(0), ds(1)]), { data: { batchSetDataProduct: true } })
  t.same(await assets(app, p1), [ds(0), ds(1)])
  const first = (await restAspects(app, p1)).dataProductProperties?.value.assets[0]
  t.same([first.created.actor, first.lastModified.actor], [ROOT_ACTOR, ROOT_ACTOR], 'stamped by the caller')
  t.same(await productsOf(app, ds(0)), [p1], 'the edge is served over GraphQL')

  await setProduct(app, p2, [ds(1), ds(2)])
  t.same(await assets(app, p1), [ds(0)], 'ds1 left p1')
  t.same(await assets(app, p2), [ds(1), ds(2)])
  t.same(await productsOf(app, ds(1)), [p2])
  await setProduct(app, p1, [ds(0)])
  t.same(
    (await restAspects(app, p1)).dataProductProperties?.value.assets[0],
    first,
    'setting again keeps the stamp',
  )

  await setProduct(app, null, [ds(1)])
  t.same(await assets(app, p2), [ds(2)], 'null unsets')
  t.same(await productsOf(app, ds(1)), [])

  const before = [await snapshot(app, p1), await snapshot(app, p2)]
  const unknownResource = await setProduct(app, p1, [ds(1), MISSING])
  t.same(badRequest(unknownResource, 'batchSetDataProduct'), {
    message: `Failed to batch set Data Product, ${MISSING} in resources does not exist`,
    code: 400,
    type: 'BAD_REQUEST',
  })
  const unknownProduct = await setProduct(app, 'urn:li:dataProduct:nope', [ds(0)])
  t.same(badRequest(unknownProduct, 'batchSetDataProduct'), {
    message: 'Failed to batch set Data Product, Data Product urn urn:li:dataProduct:nope does not exist',
    code: 400,
    type: 'BAD_REQUEST',
  })
  const malformed = await setProduct(app, p1, ['not-a-urn'])
  t.equal(badRequest(malformed, 'batchSetDataProduct').code, 400, 'a malformed urn is a bad request')
  t.same([await snapshot(app, p1), await snapshot(app, p2)], before, 'nothing written')
})

t.test('30 concurrent batchSetDataProduct calls lose nothing', async (t) => {
  const { app } = await build(t)
  await seed(app, 30)
  await create(app, 'p1')
  await create(app, 'p2')
  const [p1, p2] = ['urn:li:dataProduct:p1', 'urn:li:dataProduct:p2']
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => setProduct(app, p1, [ds(i)])))
  t.ok(answers.every((a) => a.data?.batchSetDataProduct === true))
  t.equal((await assets(app, p1)).length, 30, 'every asset landed')
  const renamed = await Promise.all([
    ...Array.from({ length: 10 }, (_, i) => setProduct(app, p2, [ds(i)])),
    gql(app, `mutation { updateDataProduct(urn: "${p1}", input: {description: "raced"}) { urn } }`),
  ])
  t.ok(renamed.every((a) => !a.errors))
  t.equal((await assets(app, p1)).length, 20, 'p1 keeps the 20 others')
  t.equal((await assets(app, p2)).length, 10)
  t.equal((await restAspects(app, p1)).dataProductProperties?.value.description, 'raced')
  // One asset moved back and forth at once ends in exactly one product.
  const moved = Array.from({ length: 10 }, (_, i) => ds(20 + i))
  await Promise.all(Array.from({ length: 20 }, (_, i) => setProduct(app, i % 2 ? p1 : p2, moved)))
  const held = [...(await assets(app, p1)), ...(await assets(app, p2))].filter((u) => moved.includes(u))
  t.same(held.sort(), moved.sort(), 'each stored in exactly one data product')
  for (const urn of moved) t.equal((await productsOf(app, urn)).length, 1, `${urn}: one edge`)
})

t.test('deleteDataProduct removes the product and its edges', async (t) => {
  const { app } = await build(t)
  await seed(app)
  await create(app, 'p1')
  await setProduct(app, 'urn:li:dataProduct:p1', [ds(0)])
  t.same(await gql(app, 'mutation { deleteDataProduct(urn: "urn:li:dataProduct:p1") }'), {
    data: { deleteDataProduct: true },
  })
  t.equal(await exists(app, 'urn:li:dataProduct:p1'), false, 'it no longer exists')
  t.same(
    Object.keys(await restAspects(app, 'urn:li:dataProduct:p1')),
    ['dataProductKey'],
    'REST has no aspect left',
  )
  t.same(await productsOf(app, ds(0)), [], 'the asset is in no product')
  const again = await gql(app, 'mutation { deleteDataProduct(urn: "urn:li:dataProduct:p1") }')
  t.same(badRequest(again, 'deleteDataProduct'), {
    message: 'The Data Product provided dos not exist',
    code: 400,
    type: 'BAD_REQUEST',
  })
})

t.test('a Reader may not manage data products; nothing is written', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DOMAIN, 'domainProperties', { name: 'Marketing' })
  await adminWrite(built, ds(0), 'datasetProperties', { name: 'dp_0', customProperties: {} })
  const admin = await gqlAs(built.app, built.adminToken, CREATE, {
    input: { id: 'p1', domainUrn: DOMAIN, properties: { name: 'P1' } },
  })
  t.equal(admin.body.data.createDataProduct.urn, 'urn:li:dataProduct:p1', 'the admin may')
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const before = await aspectOf(built, 'urn:li:dataProduct:p1', 'dataProductProperties')
  const calls: Record<string, [string, Record<string, unknown>?]> = {
    createDataProduct: [CREATE, { input: { id: 'p2', domainUrn: DOMAIN, properties: { name: 'P2' } } }],
    updateDataProduct: [
      'mutation { updateDataProduct(urn: "urn:li:dataProduct:p1", input: {name: "x"}) { urn } }',
    ],
    deleteDataProduct: ['mutation { deleteDataProduct(urn: "urn:li:dataProduct:p1") }'],
    batchSetDataProduct: [
      `mutation { batchSetDataProduct(input: {dataProductUrn: "urn:li:dataProduct:p1", resourceUrns: ["${ds(0)}"]}) }`,
    ],
  }
  for (const [name, [query, variables]] of Object.entries(calls)) {
    const res = await gqlAs(built.app, token, query, variables)
    t.equal(res.status, 200)
    t.same(res.body.data, { [name]: null }, `${name}: no data`)
    t.match(res.body.errors?.[0], { path: [name], extensions: { code: 403, type: 'UNAUTHORIZED' } })
  }
  t.same(await aspectOf(built, 'urn:li:dataProduct:p1', 'dataProductProperties'), before, 'p1 unchanged')
  t.equal(await aspectOf(built, 'urn:li:dataProduct:p2', 'dataProductProperties'), undefined, 'no p2')
})

t.test("MANAGE_DATA_PRODUCTS on a product's domain lets a user update and delete it", async (t) => {
  const built = await build(t, { auth: true })
  const OTHER = 'urn:li:domain:finance'
  await adminWrite(built, DOMAIN, 'domainProperties', { name: 'Marketing' })
  await adminWrite(built, OTHER, 'domainProperties', { name: 'Finance' })
  for (const [id, domainUrn] of [
    ['mine', DOMAIN],
    ['theirs', OTHER],
  ]) {
    await gqlAs(built.app, built.adminToken, CREATE, { input: { id, domainUrn, properties: { name: id } } })
  }
  const steward = 'urn:li:corpuser:steward'
  await assignRole(built, steward, 'Reader')
  await adminWrite(built, 'urn:li:dataHubPolicy:steward-marketing', 'dataHubPolicyInfo', {
    displayName: 'steward manages marketing data products',
    description: 'MANAGE_DATA_PRODUCTS on one domain',
    type: 'METADATA',
    state: 'ACTIVE',
    privileges: ['MANAGE_DATA_PRODUCTS'],
    actors: { users: [steward], resourceOwners: false, allUsers: false, allGroups: false },
    resources: {
      allResources: false,
      filter: { criteria: [{ field: 'URN', values: [DOMAIN], condition: 'EQUALS' }] },
    },
    editable: true,
  })
  const token = await tokenFor(built, steward)
  const rename = (id: string) =>
    gqlAs(
      built.app,
      token,
      `mutation { updateDataProduct(urn: "urn:li:dataProduct:${id}", input: {name: "Renamed"}) { urn } }`,
    )
  t.same((await rename('mine')).body, { data: { updateDataProduct: { urn: 'urn:li:dataProduct:mine' } } })
  t.match(await aspectOf(built, 'urn:li:dataProduct:mine', 'dataProductProperties'), { name: 'Renamed' })
  const refused = await rename('theirs')
  t.match(refused.body.errors?.[0], { extensions: { code: 403 } }, 'not in another domain')
  t.match(await aspectOf(built, 'urn:li:dataProduct:theirs', 'dataProductProperties'), { name: 'theirs' })
  const created = await gqlAs(built.app, token, CREATE, {
    input: { id: 'new', domainUrn: DOMAIN, properties: { name: 'New' } },
  })
  t.equal(created.body.data?.createDataProduct?.urn, 'urn:li:dataProduct:new', 'creates in its domain')
  const deleted = await gqlAs(
    built.app,
    token,
    'mutation { deleteDataProduct(urn: "urn:li:dataProduct:mine") }',
  )
  t.same(deleted.body, { data: { deleteDataProduct: true } })
})
