import t, { type Test } from 'tap'
import { adminWrite, deactivatePolicy, get, post, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'

/**
 * The REST reads DataHub checks beyond entity and aspect reads: multi-hop lineage, the
 * timeline, the batch `/entitiesV2`, usage queries, counts, existence, listUrns and the
 * OpenAPI v2 batch and relationships v1, for a user who may view one dataset and not another.
 */

const ALICE = 'urn:li:corpuser:alice'
const SEEN = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_reads_seen,PROD)'
const HIDDEN = 'urn:li:dataset:(urn:li:dataPlatform:hive,authz_reads_hidden,PROD)'
const enc = encodeURIComponent

/** Alice may read SEEN only: no "All Users" reads, one policy on that URN. */
async function setUp(t: Test) {
  const built = await build(t, { auth: true })
  for (const urn of [SEEN, HIDDEN]) {
    await adminWrite(built, urn, 'datasetProperties', { name: urn, customProperties: {} })
    await adminWrite(built, urn, 'upstreamLineage', {
      upstreams: [
        { dataset: urn === SEEN ? HIDDEN : SEEN, type: 'TRANSFORMED', auditStamp: { time: 0, actor: ALICE } },
      ],
    })
  }
  await deactivatePolicy(built, 'view-entity-page-all')
  await deactivatePolicy(built, 'view-dataset-sensitive')
  await adminWrite(built, 'urn:li:dataHubPolicy:alice-reads-one', 'dataHubPolicyInfo', {
    displayName: 'alice reads one dataset',
    description: 'Alice may view one dataset',
    type: 'METADATA',
    state: 'ACTIVE',
    privileges: ['VIEW_ENTITY_PAGE', 'GET_TIMELINE_PRIVILEGE', 'VIEW_DATASET_USAGE'],
    actors: { users: [ALICE], resourceOwners: false, allUsers: false, allGroups: false },
    resources: {
      allResources: false,
      filter: { criteria: [{ field: 'URN', values: [SEEN], condition: 'EQUALS' }] },
    },
    editable: true,
  })
  return { built, alice: await tokenFor(built, ALICE) }
}

t.test('reads of a resource the user may not view are refused with DataHub messages', async (t) => {
  const { built, alice } = await setUp(t)
  const { app } = built
  const refused = (res: { status: number; body: { message?: string; status?: number } }, message: string) => {
    t.same([res.status, res.body?.message, res.body?.status], [403, message, 403], message)
  }

  const lineage = (urn: string) => ({ urn, direction: 'UPSTREAM', maxHops: 3 })
  refused(
    await post(app, '/relationships?action=getLineage', alice, lineage(HIDDEN)),
    `User is unauthorized to get entity lineage: ${HIDDEN}`,
  )
  const seenLineage = await post(app, '/relationships?action=getLineage', alice, lineage(SEEN))
  t.equal(seenLineage.status, 200, 'getLineage of the dataset alice may view')
  t.ok(
    seenLineage.body.value.relationships.some((r: { entity: string }) => r.entity === HIDDEN),
    'and its upstream is there',
  )
  refused(
    await get(app, `/lineage?urn=${enc(HIDDEN)}&direction=UPSTREAM`, alice),
    `User is unauthorized to get entity lineage: ${HIDDEN}`,
  )
  t.equal((await get(app, `/lineage?urn=${enc(SEEN)}&direction=UPSTREAM`, alice)).status, 200)
  refused(
    await get(
      app,
      `/openapi/relationships/v1?urn=${enc(HIDDEN)}&relationshipTypes=DownstreamOf&direction=OUTGOING`,
      alice,
    ),
    `User is unauthorized to get entity lineage: ${HIDDEN}`,
  )

  const timeline = (urn: string) => `/openapi/v2/timeline/v1/${enc(urn)}?categories=DOCUMENTATION&startTime=0`
  refused(
    await get(app, timeline(HIDDEN), alice),
    `${ALICE} is unauthorized to get the timeline for entity ${HIDDEN}`,
  )
  t.equal((await get(app, timeline(SEEN), alice)).status, 200, 'the timeline alice may read')
  refused(
    await get(app, `/openapi/timeline/v1/${enc(HIDDEN)}?categories=DOCUMENTATION&raw=True`, alice),
    `${ALICE} is unauthorized to get the timeline for entity ${HIDDEN}`,
  )

  const batch = await get(app, `/entitiesV2?ids=List(${enc(SEEN)},${enc(HIDDEN)})`, alice)
  refused(batch, `User is unauthorized to get entities [${SEEN}, ${HIDDEN}]`)
  const one = await get(app, `/entitiesV2?ids=List(${enc(SEEN)})&aspects=List(datasetProperties)`, alice)
  t.equal(one.status, 200, 'the batch of what alice may read')
  t.equal(one.body.results[SEEN].aspects.datasetProperties.value.name, SEEN)

  const usage = (resource: string) => ({ resource, duration: 'DAY', rangeFromEnd: 'ALL' })
  refused(
    await post(app, '/usageStats?action=queryRange', alice, usage(HIDDEN)),
    'User is unauthorized to query usage.',
  )
  refused(
    await post(app, '/usageStats?action=query', alice, { resource: HIDDEN, duration: 'DAY' }),
    'User is unauthorized to query usage.',
  )
  t.equal((await post(app, '/usageStats?action=queryRange', alice, usage(SEEN))).status, 200)

  refused(
    await post(app, '/entities?action=exists', alice, { urn: HIDDEN }),
    `User is unauthorized check entity existence: ${HIDDEN}`,
  )
  t.same((await post(app, '/entities?action=exists', alice, { urn: SEEN })).body, { value: true })
  refused(
    await post(app, '/entities?action=listUrns', alice, { entity: 'dataset', start: 0, count: 10 }),
    'User is unauthorized to search.',
  )
  refused(
    await post(app, '/entities?action=batchGetTotalEntityCount', alice, { entities: ['dataset'] }),
    'User is unauthorized to get entity counts.',
  )
  refused(
    await post(app, '/aspects?action=getCount', alice, { aspect: 'datasetKey' }),
    'User is unauthorized to get aspect counts.',
  )
  refused(
    await post(app, '/openapi/v2/entity/batch/dataset', alice, {
      urns: [HIDDEN],
      aspectNames: ['datasetProperties'],
    }),
    `${ALICE} is unauthorized to READ  entities.`,
  )
  t.equal(
    (
      await post(app, '/openapi/v2/entity/batch/dataset', alice, {
        urns: [SEEN],
        aspectNames: ['datasetProperties'],
      })
    ).status,
    200,
  )
  const head = await app.inject({
    method: 'HEAD',
    url: `/openapi/v3/entity/dataset/${enc(HIDDEN)}`,
    headers: { authorization: `Bearer ${alice}` },
  })
  t.equal(head.statusCode, 403, 'OpenAPI v3 exists of the hidden dataset')

  // The admin reads all of it; the counts need GET_COUNTS_PRIVILEGE, which the admin has.
  const admin = built.adminToken
  t.equal((await post(app, '/relationships?action=getLineage', admin, lineage(HIDDEN))).status, 200)
  t.equal((await get(app, timeline(HIDDEN), admin)).status, 200)
  t.equal((await get(app, `/entitiesV2?ids=List(${enc(SEEN)},${enc(HIDDEN)})`, admin)).status, 200)
  t.equal((await post(app, '/aspects?action=getCount', admin, { aspect: 'datasetKey' })).status, 200)
  t.equal(
    (await post(app, '/entities?action=batchGetTotalEntityCount', admin, { entities: ['dataset'] })).status,
    200,
  )
})
