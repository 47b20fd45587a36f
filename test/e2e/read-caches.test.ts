import t from 'tap'
import { adminWrite, get, gql, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'

/**
 * The caches on the read path (verified tokens, what a read asks of the authorizer, the latest
 * rows of entities) never answer what the next request after a change would not: a revoked
 * token, an edited policy, a new or deleted aspect count at once.
 */

const ALICE = 'urn:li:corpuser:alice'
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,read_caches,PROD)'
const enc = encodeURIComponent
const entityUrl = `/entitiesV2/${enc(DATASET)}`
const aspectUrl = `/aspects/${enc(DATASET)}?aspect=datasetProperties&version=0`
const POLICY = 'urn:li:dataHubPolicy:alice-reads-caches'

function alicePolicy(state: 'ACTIVE' | 'INACTIVE') {
  return {
    displayName: 'alice reads one dataset',
    description: 'Alice may view one dataset',
    type: 'METADATA',
    state,
    privileges: ['VIEW_ENTITY_PAGE'],
    actors: { users: [ALICE], resourceOwners: false, allUsers: false, allGroups: false },
    resources: {
      allResources: false,
      filter: { criteria: [{ field: 'URN', values: [DATASET], condition: 'EQUALS' }] },
    },
    editable: true,
  }
}

t.test('entity and aspect reads see every write on the next request', async (t) => {
  const built = await build(t, { auth: true })
  const admin = built.adminToken
  await adminWrite(built, DATASET, 'datasetProperties', { name: 'one', customProperties: {} })
  for (let i = 0; i < 2; i++) {
    t.equal((await get(built.app, entityUrl, admin)).body.aspects.datasetProperties.value.name, 'one')
    t.same((await get(built.app, aspectUrl, admin)).body, {
      version: 0,
      aspect: { 'com.linkedin.dataset.DatasetProperties': { name: 'one', customProperties: {} } },
    })
  }
  await adminWrite(built, DATASET, 'datasetProperties', { name: 'two', customProperties: {} })
  t.equal((await get(built.app, entityUrl, admin)).body.aspects.datasetProperties.value.name, 'two')
  t.equal(
    (await get(built.app, aspectUrl, admin)).body.aspect['com.linkedin.dataset.DatasetProperties'].name,
    'two',
    'the versioned read too',
  )
  const before = (await get(built.app, `/aspects/${enc(DATASET)}?aspect=datasetProperties&version=1`, admin))
    .body
  t.equal(before.aspect['com.linkedin.dataset.DatasetProperties'].name, 'one', 'version 1 is the old value')

  const aspectNames = async () => Object.keys((await get(built.app, entityUrl, admin)).body.aspects)
  t.notOk((await aspectNames()).includes('globalTags'))
  await adminWrite(built, DATASET, 'globalTags', { tags: [{ tag: 'urn:li:tag:gold' }] })
  t.ok((await aspectNames()).includes('globalTags'), 'a new aspect is seen at once')

  const deleted = await built.app.inject({
    method: 'POST',
    url: '/entities?action=delete',
    headers: { authorization: `Bearer ${admin}`, 'x-restli-protocol-version': '2.0.0' },
    payload: { urn: DATASET },
  })
  t.equal(deleted.statusCode, 200)
  t.same(Object.keys((await get(built.app, entityUrl, admin)).body.aspects), ['datasetKey'], 'deleted')
  const gone = await get(built.app, aspectUrl, admin)
  t.equal(gone.status, 404, 'the aspect read is a 404 once deleted')
})

t.test('a policy edit counts on the next read of a remembered request', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DATASET, 'datasetProperties', { name: 'one', customProperties: {} })
  for (const id of ['view-entity-page-all', 'view-dataset-sensitive']) {
    const urn = `urn:li:dataHubPolicy:${id}`
    const info = (await get(built.app, `/entitiesV2/${enc(urn)}`, built.adminToken)).body.aspects
      .dataHubPolicyInfo.value
    await adminWrite(built, urn, 'dataHubPolicyInfo', { ...info, state: 'INACTIVE' })
  }
  await adminWrite(built, POLICY, 'dataHubPolicyInfo', alicePolicy('ACTIVE'))
  const alice = await tokenFor(built, ALICE)
  for (let i = 0; i < 2; i++) t.equal((await get(built.app, entityUrl, alice)).status, 200, 'allowed')
  await adminWrite(built, POLICY, 'dataHubPolicyInfo', alicePolicy('INACTIVE'))
  const refused = await get(built.app, entityUrl, alice)
  t.same([refused.status, refused.body.status], [403, 403], 'refused at once')
  t.equal((await get(built.app, aspectUrl, alice)).status, 403, 'the aspect read too')
  await adminWrite(built, POLICY, 'dataHubPolicyInfo', alicePolicy('ACTIVE'))
  t.equal((await get(built.app, entityUrl, alice)).status, 200, 'allowed again at once')
})

t.test('a revoked token is refused on the next request', async (t) => {
  const built = await build(t, { auth: true })
  const minted = await gql(
    built.app,
    built.adminToken,
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_HOUR, name: "cached"}) { accessToken metadata { id } } }',
  )
  const { accessToken, metadata } = minted.body.data.createAccessToken
  for (let i = 0; i < 3; i++) t.equal((await get(built.app, entityUrl, accessToken)).status, 200)
  const revoked = await gql(
    built.app,
    built.adminToken,
    'mutation($id: String!) { revokeAccessToken(tokenId: $id) }',
    {
      id: metadata.id,
    },
  )
  t.same(revoked.body, { data: { revokeAccessToken: true } })
  const refused = await get(built.app, entityUrl, accessToken)
  t.same([refused.status, refused.body.status], [401, 401])
  t.match(refused.body.message, /revoked/)
})

t.test('relationship reads see an edge written by another entity on the next request', async (t) => {
  const built = await build(t, { auth: true })
  const admin = built.adminToken
  const downstream = 'urn:li:dataset:(urn:li:dataPlatform:hive,read_caches_down,PROD)'
  const url = `/relationships?direction=INCOMING&urn=${enc(DATASET)}&types=List(DownstreamOf)`
  const lineage = (upstreams: string[]) => ({
    upstreams: upstreams.map((dataset) => ({
      dataset,
      type: 'TRANSFORMED',
      auditStamp: { time: 0, actor: ALICE },
    })),
  })
  await adminWrite(built, DATASET, 'datasetProperties', { name: 'one', customProperties: {} })
  for (let i = 0; i < 2; i++) t.same((await get(built.app, url, admin)).body.entities, [], 'no edge yet')
  await adminWrite(built, downstream, 'upstreamLineage', lineage([DATASET]))
  t.same((await get(built.app, url, admin)).body, {
    start: 0,
    count: 1,
    total: 1,
    relationships: [{ type: 'DownstreamOf', entity: downstream }],
    entities: [downstream],
  })
  await adminWrite(built, downstream, 'upstreamLineage', lineage([]))
  t.same((await get(built.app, url, admin)).body.entities, [], 'the edge is gone at once')
  const bad = await get(built.app, `/relationships?direction=INCOMING&urn=${enc(DATASET)}`, admin)
  t.same([bad.status, bad.body.message], [400, "Parameter 'types' is required"], 'errors are not remembered')
})
