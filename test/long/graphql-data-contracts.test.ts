import t from 'tap'
import { adminWrite, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, snapshot } from '../helpers/mutation-kit.js'

/** Data contracts over GraphQL, as DataHub serves them: `upsertDataContract` and a dataset's `contract`. */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,contracted,PROD)'
const UPSERT = `mutation($input: UpsertDataContractInput!) { upsertDataContract(input: $input) { urn
  properties { entityUrn freshness { assertion { urn } } schema { assertion { urn } } dataQuality { assertion { urn info { type } } } }
  status { state } } }`
const CONTRACT = `query($urn: String!) { dataset(urn: $urn) { contract { urn status { state }
  properties { dataQuality { assertion { urn } } } } } }`

async function assertion(app: Parameters<typeof gql>[0], id: string): Promise<string> {
  const urn = `urn:li:assertion:${id}`
  await ingestAspect(app, 'assertion', urn, 'assertionInfo', {
    type: 'CUSTOM',
    customAssertion: { type: 'Volume', entity: DS },
  })
  return urn
}

t.test('upsert a contract, read it on the dataset, update it in place', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'contracted' })
  t.same((await gql(app, CONTRACT, { urn: DS })).data.dataset.contract, null, 'none yet')
  const fresh = await assertion(app, 'fresh')
  const quality = await assertion(app, 'quality')
  const created = await gql(app, UPSERT, {
    input: {
      entityUrn: DS,
      id: 'orders-contract',
      freshness: [{ assertionUrn: fresh }],
      dataQuality: [{ assertionUrn: quality }],
    },
  })
  t.notOk(created.errors, 'no errors')
  t.same(created.data.upsertDataContract, {
    urn: 'urn:li:dataContract:orders-contract',
    properties: {
      entityUrn: DS,
      freshness: [{ assertion: { urn: fresh } }],
      schema: null,
      dataQuality: [{ assertion: { urn: quality, info: { type: 'CUSTOM' } } }],
    },
    status: { state: 'ACTIVE' },
  })
  t.same((await gql(app, CONTRACT, { urn: DS })).data.dataset.contract, {
    urn: 'urn:li:dataContract:orders-contract',
    status: { state: 'ACTIVE' },
    properties: { dataQuality: [{ assertion: { urn: quality } }] },
  })
  const again = await gql(app, UPSERT, {
    input: { entityUrn: DS, id: 'another-id', dataQuality: [], state: 'PENDING' },
  })
  t.match(
    again.data.upsertDataContract,
    {
      urn: 'urn:li:dataContract:orders-contract',
      properties: { freshness: null, dataQuality: [] },
      status: { state: 'PENDING' },
    },
    "the dataset's existing contract is the one updated, replaced whole",
  )
})

t.test('the entity and the assertions must exist; nothing written otherwise', async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'contracted' })
  const before = await snapshot(app, DS)
  const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,nowhere,PROD)'
  const missingEntity = await gql(app, UPSERT, { input: { entityUrn: other } })
  t.match(badRequest(missingEntity, 'upsertDataContract'), {
    message: `Provided entity with urn ${other} does not exist!`,
    code: 400,
  })
  const missingAssertion = await gql(app, UPSERT, {
    input: { entityUrn: DS, freshness: [{ assertionUrn: 'urn:li:assertion:nope' }] },
  })
  t.match(badRequest(missingAssertion, 'upsertDataContract'), {
    message: 'Provided assertion with urn urn:li:assertion:nope does not exist!',
  })
  t.equal(await snapshot(app, DS), before)
  t.same((await gql(app, CONTRACT, { urn: DS })).data.dataset.contract, null, 'no contract written')
})

t.test('a contract needs EDIT_ENTITY_DATA_CONTRACT on its entity', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'contracted' })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const refused = await gqlAs(built.app, reader, UPSERT, { input: { entityUrn: DS } })
  t.equal(refused.body.errors?.[0]?.extensions?.code, 403)
  const admin = await gqlAs(built.app, built.adminToken as string, UPSERT, { input: { entityUrn: DS } })
  t.match(admin.body.data.upsertDataContract, { urn: /^urn:li:dataContract:/ }, 'the admin may')
})
