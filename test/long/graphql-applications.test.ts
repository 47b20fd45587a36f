import t from 'tap'
import { adminWrite, aspectOf, assignRole, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * Applications over GraphQL, as DataHub serves them: create, update, delete, assets assigned in
 * batches, an asset's `applications`, `listApplicationAssets` and the applications setting.
 */

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,apps.orders,PROD)'
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,apps.users,PROD)'
const DOMAIN = 'urn:li:domain:sales'
const CREATE = `mutation($input: CreateApplicationInput!) { createApplication(input: $input) {
  urn type properties { name description } domain { domain { urn } }
  ownership { owners { owner { ... on CorpUser { urn } } type } } } }`
const SET = `mutation($input: BatchSetApplicationInput!) { batchSetApplication(input: $input) }`
const UNSET = `mutation($input: BatchUnsetApplicationInput!) { batchUnsetApplication(input: $input) }`
const ASSET = `query($u: String!) { dataset(urn: $u) { applications { associatedUrn application { urn properties { name } } }
  application { application { urn } } } }`

async function datasets(app: Parameters<typeof gql>[0]) {
  for (const [urn, name] of [
    [ORDERS, 'orders'],
    [USERS, 'users'],
  ] as const) {
    await ingestAspect(app, 'dataset', urn, 'datasetProperties', { name, customProperties: {} })
  }
  await ingestAspect(app, 'domain', DOMAIN, 'domainProperties', { name: 'Sales' })
}

t.test('create an application, assign assets, list them, unassign, delete', async (t) => {
  const { app } = await build(t)
  await datasets(app)
  const made = await gql(app, CREATE, {
    input: {
      id: 'checkout',
      domainUrn: DOMAIN,
      properties: { name: 'Checkout', description: 'Order taking' },
    },
  })
  t.notOk(made.errors, 'no errors')
  t.same(made.data.createApplication, {
    urn: 'urn:li:application:checkout',
    type: 'APPLICATION',
    properties: { name: 'Checkout', description: 'Order taking' },
    domain: { domain: { urn: DOMAIN } },
    ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:datahub' }, type: 'TECHNICAL_OWNER' }] },
  })
  const app2 = await gql(app, CREATE, {
    input: { id: 'billing', properties: { name: 'Billing' }, shouldAddCreatorAsOwner: false },
  })
  t.same(app2.data.createApplication.ownership, null, 'no owner when asked not to')
  const taken = await gql(app, CREATE, { input: { id: 'checkout', properties: { name: 'Again' } } })
  t.equal(taken.errors?.[0]?.message, 'This Application already exists!')
  const noDomain = await gql(app, CREATE, {
    input: { id: 'x', domainUrn: 'urn:li:domain:none', properties: { name: 'X' } },
  })
  t.equal(noDomain.errors?.[0]?.message, 'The Domain provided dos not exist')

  const CHECKOUT = 'urn:li:application:checkout'
  const BILLING = 'urn:li:application:billing'
  t.same((await gql(app, SET, { input: { applicationUrn: CHECKOUT, resourceUrns: [ORDERS, USERS] } })).data, {
    batchSetApplication: true,
  })
  await gql(app, SET, { input: { applicationUrn: BILLING, resourceUrns: [ORDERS] } })
  const orders = (await gql(app, ASSET, { u: ORDERS })).data.dataset
  t.same(orders.applications, [
    { associatedUrn: ORDERS, application: { urn: CHECKOUT, properties: { name: 'Checkout' } } },
    { associatedUrn: ORDERS, application: { urn: BILLING, properties: { name: 'Billing' } } },
  ])
  t.same(orders.application, { application: { urn: CHECKOUT } }, 'the deprecated single one is the first')

  const assets = await gql(
    app,
    `query($u: String!) { listApplicationAssets(urn: $u, input: {query: "*", start: 0, count: 10}) {
      total searchResults { entity { urn } } } }`,
    { u: CHECKOUT },
  )
  t.notOk(assets.errors)
  t.same(
    assets.data.listApplicationAssets.searchResults
      .map((r: { entity: { urn: string } }) => r.entity.urn)
      .sort(),
    [ORDERS, USERS].sort(),
  )
  const filtered = await gql(
    app,
    `{ searchAcrossEntities(input: {query: "*", orFilters: [{and: [{field: "applications", values: ["${BILLING}"]}]}]}) { total } }`,
  )
  t.equal(filtered.data.searchAcrossEntities.total, 1, 'searchable by application')

  await gql(app, UNSET, { input: { applicationUrn: CHECKOUT, resourceUrns: [ORDERS] } })
  t.same((await gql(app, ASSET, { u: ORDERS })).data.dataset.applications, [
    { associatedUrn: ORDERS, application: { urn: BILLING, properties: { name: 'Billing' } } },
  ])
  await gql(app, SET, { input: { applicationUrn: null, resourceUrns: [ORDERS] } })
  t.same((await gql(app, ASSET, { u: ORDERS })).data.dataset.applications, [], 'no application: all cleared')

  const updated = await gql(
    app,
    `mutation($u: String!) { updateApplication(urn: $u, input: {description: "Takes orders"}) { properties { name description } } }`,
    { u: CHECKOUT },
  )
  t.same(updated.data.updateApplication.properties, { name: 'Checkout', description: 'Takes orders' })

  t.same((await gql(app, 'mutation($u: String!) { deleteApplication(urn: $u) }', { u: CHECKOUT })).data, {
    deleteApplication: true,
  })
  t.same((await gql(app, ASSET, { u: USERS })).data.dataset.applications, [], 'its assets let go of it')
  const gone = await gql(app, 'mutation($u: String!) { deleteApplication(urn: $u) }', { u: CHECKOUT })
  t.equal(gone.errors?.[0]?.message, 'The Application provided does not exist')
})

t.test('bad input: nothing written', async (t) => {
  const { app } = await build(t)
  await datasets(app)
  await gql(app, CREATE, { input: { id: 'checkout', properties: { name: 'Checkout' } } })
  const blank = await gql(app, CREATE, { input: { id: 'blank', properties: { name: '' } } })
  t.equal(blank.errors?.[0]?.message, 'An application needs a name that is not blank')
  const noApp = await gql(app, SET, {
    input: { applicationUrn: 'urn:li:application:none', resourceUrns: [ORDERS] },
  })
  t.equal(
    noApp.errors?.[0]?.message,
    'Failed to batch set Application, Application urn urn:li:application:none does not exist',
  )
  const missing = 'urn:li:dataset:(urn:li:dataPlatform:hive,none,PROD)'
  const noAsset = await gql(app, SET, {
    input: { applicationUrn: 'urn:li:application:checkout', resourceUrns: [ORDERS, missing] },
  })
  t.equal(noAsset.errors?.[0]?.message, `Failed to set_application, ${missing} in resources does not exist`)
  t.same(
    (await gql(app, ASSET, { u: ORDERS })).data.dataset.applications,
    null,
    'the existing asset was not assigned',
  )
  const update = await gql(
    app,
    'mutation { updateApplication(urn: "urn:li:application:none", input: {name: "x"}) { urn } }',
  )
  t.equal(update.errors?.[0]?.message, 'The Application provided dos not exist')
})

t.test('privileges, and the applications setting', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, ORDERS, 'datasetProperties', { name: 'orders', customProperties: {} })
  const made = await gqlAs(built.app, built.adminToken, CREATE, {
    input: { id: 'checkout', properties: { name: 'Checkout' } },
  })
  t.equal(made.body.data.createApplication.urn, 'urn:li:application:checkout', 'the admin may create')
  const reader = 'urn:li:corpuser:reader'
  await assignRole(built, reader, 'Reader')
  const token = await tokenFor(built, reader)
  const refused = [
    await gqlAs(built.app, token, CREATE, { input: { id: 'mine', properties: { name: 'Mine' } } }),
    await gqlAs(built.app, token, SET, {
      input: { applicationUrn: 'urn:li:application:checkout', resourceUrns: [ORDERS] },
    }),
    await gqlAs(built.app, token, 'mutation { deleteApplication(urn: "urn:li:application:checkout") }'),
    await gqlAs(built.app, token, 'mutation { updateApplicationsSettings(input: {enabled: true}) }'),
  ]
  for (const r of refused) {
    t.equal(
      r.body.errors?.[0]?.message,
      'Unauthorized to perform this action. Please contact your DataHub administrator.',
    )
  }
  t.equal(await aspectOf(built, ORDERS, 'applications'), undefined, 'nothing assigned')

  const CONFIG =
    '{ appConfig { visualConfig { application { showApplicationInNavigation showSidebarSectionWhenEmpty } } } }'
  t.same(
    (await gqlAs(built.app, built.adminToken, CONFIG)).body.data.appConfig.visualConfig.application,
    { showApplicationInNavigation: false, showSidebarSectionWhenEmpty: false },
    'off while unset',
  )
  const enabled = await gqlAs(
    built.app,
    built.adminToken,
    'mutation { updateApplicationsSettings(input: {enabled: true}) }',
  )
  t.same(enabled.body.data, { updateApplicationsSettings: true })
  t.same((await gqlAs(built.app, built.adminToken, CONFIG)).body.data.appConfig.visualConfig.application, {
    showApplicationInNavigation: true,
    showSidebarSectionWhenEmpty: true,
  })
  await gqlAs(built.app, built.adminToken, 'mutation { updateApplicationsSettings(input: {enabled: false}) }')
  t.same(
    await aspectOf(built, 'urn:li:globalSettings:0', 'globalSettingsInfo'),
    { applications: { enabled: false } },
    'kept in the global settings',
  )
})
