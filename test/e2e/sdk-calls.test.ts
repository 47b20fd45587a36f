/**
 * The HTTP calls of DataHub's Python SDK (`DataHubGraph` in ingestion/graph/client.py and
 * openapi.py, `DataHubRestEmitter` in emitter/rest_emitter.py), each replayed as the client sends
 * it (session headers, `json.dumps` bodies, `Urn.url_encode` paths), asserting on the fields the
 * client reads. The tally prints at the end; calls this catalog cannot serve are listed with why.
 */
import t, { type Test } from 'tap'
import { build } from '../helpers/build.js'
import { pyJson, sdkSession, urlEncode } from '../helpers/sdk-session.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,sdk_calls.orders,PROD)'
const UP = 'urn:li:dataset:(urn:li:dataPlatform:hive,sdk_calls.raw_orders,PROD)'
const GONE = 'urn:li:dataset:(urn:li:dataPlatform:kafka,sdk_calls.events,PROD)'
const DOMAIN = 'urn:li:domain:sdk-calls-sales'
const TAG = 'urn:li:tag:SdkCallsPii'
const RUN = 'sdk-calls-run-1'
const T0 = 1_764_028_800_000
const DAY = 86_400_000

/** `ensure_has_system_metadata` plus the run the workunit belongs to. */
const sm = (runId = RUN) => ({
  lastObserved: T0,
  runId,
  registryName: null,
  registryVersion: null,
  properties: { clientId: 'acryl-datahub', clientVersion: '1.3.1' },
})

/** `pre_json_transform(MetadataChangeProposalWrapper(...).to_obj())`. */
const mcp = (urn: string, aspectName: string, value: unknown, runId = RUN) => ({
  entityType: urn.split(':')[2],
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: pyJson(value), contentType: 'application/json' },
  systemMetadata: sm(runId),
})

const profile = (time: number, rows: number) => ({
  timestampMillis: time,
  partitionSpec: { type: 'FULL_TABLE', partition: 'FULL_TABLE_SNAPSHOT' },
  rowCount: rows,
  columnCount: 3,
})

/** Calls that work, and the ones this catalog does not serve, with the reason. */
const worked: string[] = []
const notServed: Array<[string, string]> = [
  ['get_kafka_consumer_offsets', 'there is no Kafka: writes are applied synchronously'],
]

t.test("DataHub's Python SDK calls, replayed", async (t) => {
  const { app, adminToken } = await build(t, { auth: true })
  const sdk = sdkSession(app, adminToken)
  const call = (name: string, fn: (t: Test) => Promise<void>) =>
    t.test(name, async (t) => {
      await fn(t)
      if (t.passing()) worked.push(name)
    })

  await call('test_connection (GET /config)', async (t) => {
    const res = await sdk.get('/config')
    t.equal(res.status, 200)
    t.equal(res.body.noCode, 'true', 'the emitter checks it is talking to GMS')
    t.type(res.body.versions?.['acryldata/datahub']?.version, 'string')
  })

  await call('emit_mcps (Rest.li ingestProposalBatch)', async (t) => {
    const proposals = [
      mcp(UP, 'datasetProperties', { name: 'raw_orders', customProperties: {}, tags: [] }),
      mcp(DS, 'datasetProperties', {
        name: 'orders',
        description: 'Orders by day',
        customProperties: {},
        tags: [],
      }),
      mcp(DS, 'upstreamLineage', {
        upstreams: [
          { auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: UP, type: 'TRANSFORMED' },
        ],
      }),
      mcp(DS, 'globalTags', { tags: [{ tag: TAG }] }),
      mcp(DS, 'domains', { domains: [DOMAIN] }),
      mcp(DOMAIN, 'domainProperties', { name: 'Sales' }),
      mcp(GONE, 'status', { removed: false }),
    ]
    const res = await sdk.post('/aspects?action=ingestProposalBatch', { proposals, async: 'false' })
    t.equal(res.status, 200, JSON.stringify(res.body))
  })

  await call('emit_mcp (Rest.li ingestProposal)', async (t) => {
    const res = await sdk.post('/aspects?action=ingestProposal', {
      proposal: mcp(DS, 'ownership', {
        owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
        ownerTypes: {},
        lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' },
      }),
      async: 'false',
    })
    t.equal(res.status, 200)
    t.equal(res.body.value, DS, 'the ingested URN')
  })

  await call('emit_mcp of a time-series aspect (datasetProfile)', async (t) => {
    for (const [i, rows] of [10, 20, 30].entries()) {
      const res = await sdk.post('/aspects?action=ingestProposal', {
        proposal: mcp(DS, 'datasetProfile', profile(T0 + i * DAY, rows)),
        async: 'false',
      })
      t.equal(res.status, 200)
    }
  })

  await call('emit_mce (Rest.li /entities?action=ingest)', async (t) => {
    const snapshot = {
      urn: GONE,
      aspects: [{ 'com.linkedin.common.Status': { removed: false } }],
    }
    const res = await sdk.post('/entities?action=ingest', {
      entity: { value: { 'com.linkedin.metadata.snapshot.DatasetSnapshot': snapshot } },
      systemMetadata: sm(),
    })
    t.equal(res.status, 200)
  })

  await call('emit_usage (/usageStats?action=batchIngest)', async (t) => {
    const bucket = {
      bucket: T0,
      duration: 'DAY',
      resource: DS,
      metrics: {
        uniqueUserCount: 1,
        totalSqlQueries: 2,
        users: [{ user: 'urn:li:corpuser:jdoe', count: 2 }],
      },
    }
    const res = await sdk.post('/usageStats?action=batchIngest', { buckets: [bucket] })
    t.equal(res.status, 200)
  })

  await call('get_aspect (GET /aspects/{urn}?aspect=&version=0)', async (t) => {
    const res = await sdk.get(`/aspects/${urlEncode(DS)}?aspect=datasetProperties&version=0`)
    t.equal(res.status, 200)
    t.equal(res.body.aspect['com.linkedin.dataset.DatasetProperties'].description, 'Orders by day')
    const absent = await sdk.get(`/aspects/${urlEncode(DS)}?aspect=editableDatasetProperties&version=0`)
    t.equal(absent.status, 404, 'an absent aspect is a 404, which the client reads as None')
  })

  await call('exists (get_aspect of the key aspect)', async (t) => {
    t.equal((await sdk.get(`/aspects/${urlEncode(DS)}?aspect=datasetKey&version=0`)).status, 200)
    const nowhere = 'urn:li:dataset:(urn:li:dataPlatform:hive,sdk_calls.nowhere,PROD)'
    t.equal((await sdk.get(`/aspects/${urlEncode(nowhere)}?aspect=datasetKey&version=0`)).status, 404)
  })

  await call(
    'get_entity_raw / get_aspects_for_entity (GET /entitiesV2/{urn}?aspects=List(...))',
    async (t) => {
      const res = await sdk.get(`/entitiesV2/${urlEncode(DS)}?aspects=List(datasetProperties,ownership)`)
      t.equal(res.status, 200)
      t.equal(res.body.aspects.datasetProperties.value.name, 'orders')
      t.equal(res.body.aspects.ownership.value.owners[0].owner, 'urn:li:corpuser:jdoe')
    },
  )

  await call('get_entity_semityped (GET /entitiesV2/{urn})', async (t) => {
    const res = await sdk.get(`/entitiesV2/${urlEncode(DS)}`)
    t.equal(res.status, 200)
    t.ok(res.body.aspects.datasetKey, 'the key aspect is always present')
    t.equal(res.body.aspects.globalTags.systemMetadata.runId, RUN, 'with system metadata')
  })

  await call('get_latest_timeseries_value (getTimeseriesAspectValues, limit 1)', async (t) => {
    const res = await sdk.post('/aspects?action=getTimeseriesAspectValues', {
      urn: DS,
      entity: 'dataset',
      aspect: 'datasetProfile',
      limit: 1,
      filter: {
        or: [
          {
            and: [{ field: 'partitionSpec.partition', values: ['FULL_TABLE_SNAPSHOT'], condition: 'EQUAL' }],
          },
        ],
      },
    })
    t.equal(res.status, 200)
    t.equal(res.body.value.values.length, 1)
    t.equal(JSON.parse(res.body.value.values[0].aspect.value).rowCount, 30, 'the newest profile')
  })

  await call('get_usage_aspects_from_urn (getTimeseriesAspectValues of usage)', async (t) => {
    const res = await sdk.post('/aspects?action=getTimeseriesAspectValues', {
      urn: DS,
      entity: 'dataset',
      aspect: 'datasetUsageStatistics',
      startTimeMillis: T0 - DAY,
      endTimeMillis: T0 + DAY,
    })
    t.equal(res.status, 200)
    t.equal(JSON.parse(res.body.value.values[0].aspect.value).totalSqlQueries, 2)
  })

  await call('list_all_entity_urns (/entities?action=listUrns)', async (t) => {
    const res = await sdk.post('/entities?action=listUrns', { entity: 'dataset', start: 0, count: 10 })
    t.equal(res.status, 200)
    t.ok(res.body.value.entities.includes(DS), 'value.entities holds the URNs')
  })

  await call('get_search_results (/entities?action=search)', async (t) => {
    const res = await sdk.post('/entities?action=search', {
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 1,
    })
    t.equal(res.status, 200)
    t.equal(res.body.value.numEntities, 3)
  })

  await call('get_domain_urn_by_name (/entities?action=search, entities[].entity)', async (t) => {
    const res = await sdk.post('/entities?action=search', {
      input: '*',
      entity: 'domain',
      start: 0,
      count: 10,
      filter: { or: [{ and: [{ field: 'name', values: ['Sales'], condition: 'EQUAL' }] }] },
    })
    t.equal(res.status, 200)
    t.equal(res.body.value.numEntities, 1)
    // DataHub's SearchEntity records for DataHub's client; the spec's URN list for everyone else.
    t.equal(res.body.value.entities[0].entity, DOMAIN)
    const spec = await app.inject({
      method: 'POST',
      url: '/entities?action=search',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      payload: { input: '*', entity: 'domain', start: 0, count: 10 },
    })
    t.same(spec.json().value.entities, [DOMAIN], 'other callers get the URNs the spec fixes')
  })

  await call('get_container_urns_by_filter (search with an or-filter, count 5000)', async (t) => {
    const res = await sdk.post('/entities?action=search', {
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 5000,
      filter: { or: [{ and: [{ field: 'origin', values: ['PROD'], condition: 'EQUAL' }] }] },
    })
    t.equal(res.status, 200)
    const urns = res.body.value.entities.map((x: { entity: string }) => x.entity)
    t.same(urns.sort(), [DS, GONE, UP].sort())
  })

  await call('get_aspect_counts (/aspects?action=getCount)', async (t) => {
    const all = await sdk.post('/aspects?action=getCount', { aspect: 'datasetProperties' })
    t.equal(all.status, 200)
    t.equal(all.body.value, 2)
    const like = await sdk.post('/aspects?action=getCount', {
      aspect: 'datasetProperties',
      urnLike: 'urn:li:dataset:(urn:li:dataPlatform:hive,sdk_calls.raw%',
    })
    t.equal(like.body.value, 1)
  })

  await call('get_urns_by_filter (GraphQL scrollAcrossEntities)', async (t) => {
    const query = `query scrollUrnsWithFilters($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!], $batchSize: Int!, $scrollId: String, $skipCache: Boolean!, $sortInput: SearchSortInput, $includeSoftDeleted: Boolean) { scrollAcrossEntities(input: {query: $query, count: $batchSize, scrollId: $scrollId, types: $types, orFilters: $orFilters, sortInput: $sortInput, searchFlags: {skipHighlighting: true skipAggregates: true skipCache: $skipCache includeSoftDeleted: $includeSoftDeleted}}) { nextScrollId searchResults { entity { urn } extraProperties { name value } } } }`
    // generate_filter(platform="hive", env="PROD", status=NOT_SOFT_DELETED)
    const and = [
      { field: 'platform.keyword', condition: 'EQUAL', values: ['urn:li:dataPlatform:hive'] },
      { field: 'removed', condition: 'EQUAL', values: ['true'], negated: true },
    ]
    const envs = [
      { field: 'origin', value: 'PROD', condition: 'EQUAL' },
      { field: 'customProperties', value: 'env=PROD' },
      { field: 'customProperties', value: 'instance=PROD' },
      { field: 'env', value: 'PROD' },
    ]
    const urns: string[] = []
    let scrollId: string | null = null
    do {
      const res = await sdk.graphql(query, {
        types: ['DATASET'],
        query: '*',
        orFilters: envs.map((e) => ({ and: [...and, e] })),
        batchSize: 1,
        skipCache: false,
        sortInput: null,
        includeSoftDeleted: false,
        scrollId,
      })
      t.equal(res.status, 200)
      t.notOk(res.body.errors, JSON.stringify(res.body.errors))
      const data = res.body.data.scrollAcrossEntities
      urns.push(...data.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn))
      scrollId = data.nextScrollId
    } while (scrollId && urns.length < 10)
    t.same(urns.sort(), [DS, UP].sort(), 'the hive datasets, one page at a time')
  })

  await call('_graphql_input_type_has_field (__type introspection)', async (t) => {
    const res = await sdk.graphql(
      'query inputTypeFields($name: String!) { __type(name: $name) { inputFields { name } } }',
      {
        name: 'SearchFlags',
      },
    )
    const names = res.body.data.__type.inputFields.map((f: { name: string }) => f.name)
    t.ok(names.includes('skipCache') && names.includes('includeSoftDeleted'))
  })

  await call('create_tag and remove_tag (GraphQL)', async (t) => {
    const created = await sdk.graphql(
      'mutation($tag_detail: CreateTagInput!) { createTag(input: $tag_detail) }',
      { tag_detail: { name: 'SdkCallsNew', id: 'SdkCallsNew' } },
    )
    t.notOk(created.body.errors, JSON.stringify(created.body.errors))
    t.equal(created.body.data.createTag, 'urn:li:tag:SdkCallsNew')
    const removed = await sdk.graphql(
      `mutation removeTag { removeTag(input: { tagUrn: "${TAG}", resourceUrn: "${DS}" }) }`,
    )
    t.equal(removed.body.data.removeTag, true)
    const tags = await sdk.get(`/aspects/${urlEncode(DS)}?aspect=globalTags&version=0`)
    t.same(tags.body.aspect['com.linkedin.common.GlobalTags'].tags, [], 'the tag is gone')
  })

  await call('create_native_user: getInviteToken and batchAssignRole (GraphQL)', async (t) => {
    const token = await sdk.graphql(
      'query getInviteToken($input: GetInviteTokenInput!) { getInviteToken(input: $input) { inviteToken } }',
      {
        input: {},
      },
    )
    t.type(token.body.data.getInviteToken.inviteToken, 'string')
    const role = await sdk.graphql(
      'mutation batchAssignRole($input: BatchAssignRoleInput!) { batchAssignRole(input: $input) }',
      {
        input: { roleUrn: 'urn:li:dataHubRole:Reader', actors: ['urn:li:corpuser:jdoe'] },
      },
    )
    t.equal(role.body.data.batchAssignRole, true)
  })

  await call('get_related_entities (GET /openapi/relationships/v1/)', async (t) => {
    const res = await sdk.get(
      `/openapi/relationships/v1/?urn=${urlEncode(UP)}&direction=INCOMING&relationshipTypes=DownstreamOf&start=0`,
    )
    t.equal(res.status, 200)
    t.same(res.body.entities, [{ relationshipType: 'DownstreamOf', urn: DS }])
    t.equal(res.body.count, 1)
  })

  await call('scroll_relationships (GET /openapi/v3/relationship/scroll)', async (t) => {
    const params = [
      ['relationshipTypes', 'DownstreamOf'],
      ['sourceTypes', 'dataset'],
      ['sourceUrns', DS],
      ['count', '1'],
      ['includeSoftDelete', 'false'],
    ]
    const qs = params.map(([k, v]) => `${k}=${urlEncode(v as string)}`).join('&')
    const res = await sdk.get(`/openapi/v3/relationship/scroll?${qs}`)
    t.equal(res.status, 200)
    t.same(res.body.results, [
      {
        relationshipType: 'DownstreamOf',
        source: { urn: DS, entityType: 'dataset' },
        destination: { urn: UP, entityType: 'dataset' },
      },
    ])
    t.notOk(res.body.scrollId, 'the client stops when scrollId is None')
  })

  await call('get_entities_v2 (POST /openapi/v2/entity/batch/{entity})', async (t) => {
    const res = await sdk.post('/openapi/v2/entity/batch/dataset', {
      urns: [DS, UP],
      aspectNames: ['datasetProperties'],
      withSystemMetadata: false,
    })
    t.equal(res.status, 200)
    const byUrn = Object.fromEntries(
      res.body.entities.map((e: { urn: string; aspects: unknown }) => [e.urn, e.aspects]),
    )
    t.equal(byUrn[DS].datasetProperties.value.name, 'orders')
  })

  await call('get_entities (POST /openapi/v3/entity/{entity}/batchGet)', async (t) => {
    const res = await sdk.post('/openapi/v3/entity/dataset/batchGet?systemMetadata=true', [
      { urn: DS, datasetProperties: {} },
    ])
    t.equal(res.status, 200)
    t.equal(res.body[0].urn, DS)
    t.equal(res.body[0].datasetProperties.value.name, 'orders')
    t.equal(res.body[0].datasetProperties.systemMetadata.runId, RUN)
  })

  await call('scroll_entities (POST /openapi/v3/entity/{entity}/scroll)', async (t) => {
    const seen: string[] = []
    let scrollId: string | undefined
    do {
      const url = `/openapi/v3/entity/dataset/scroll?count=2&query=*${scrollId ? `&scrollId=${encodeURIComponent(scrollId)}` : ''}`
      const res = await sdk.post(url, { aspects: ['datasetProperties'] })
      t.equal(res.status, 200)
      seen.push(...res.body.entities.map((e: { urn: string }) => e.urn))
      t.equal(res.body.totalCount, 3)
      scrollId = res.body.scrollId ?? undefined
    } while (scrollId && seen.length < 10)
    // The client keeps the entities that carry one of the asked aspects (`_deserialize_entities`).
    t.ok(seen.includes(DS) && seen.includes(UP), 'both datasets with properties')
  })

  await call('get_entity_aspect_specs (GET /openapi/v1/registry/models/entity/specifications)', async (t) => {
    const res = await sdk.get('/openapi/v1/registry/models/entity/specifications?start=0&count=100')
    t.equal(res.status, 200)
    const dataset = res.body.elements.find((e: { name: string }) => e.name === 'dataset')
    t.ok(
      dataset.aspectSpecs.some(
        (a: { aspectAnnotation: { name: string } }) => a.aspectAnnotation.name === 'upstreamLineage',
      ),
    )
  })

  await call('delete_references_to_urn (/entities?action=deleteReferences, dryRun)', async (t) => {
    const res = await sdk.post('/entities?action=deleteReferences', { urn: DOMAIN, dryRun: true })
    t.equal(res.status, 200)
    t.equal(res.body.value.total, 1)
    t.match(res.body.value.relatedAspects[0], {
      entity: DS,
      aspect: 'domains',
      relationship: 'AssociatedWith',
    })
  })

  await call('restore_indices (/operations?action=restoreIndices)', async (t) => {
    const res = await sdk.post('/operations?action=restoreIndices', { urn: DS })
    t.equal(res.status, 200)
    t.type(res.body.value, 'string')
  })

  await call('hard_delete_timeseries_aspect (/entities?action=delete with aspectName)', async (t) => {
    const res = await sdk.post('/entities?action=delete', {
      urn: DS,
      aspectName: 'datasetProfile',
      startTimeMillis: T0 + DAY,
      endTimeMillis: T0 + 3 * DAY,
    })
    t.equal(res.status, 200)
    t.equal(res.body.value.timeseriesRows, 2, 'the two later profiles')
  })

  await call('soft_delete_entity (status removed, run __datahub-graph-client)', async (t) => {
    const res = await sdk.post('/aspects?action=ingestProposal', {
      proposal: mcp(GONE, 'status', { removed: true }, '__datahub-graph-client'),
      async: 'false',
    })
    t.equal(res.status, 200)
    const search = await sdk.post('/entities?action=search', {
      input: '*',
      entity: 'dataset',
      start: 0,
      count: 10,
    })
    t.notOk(search.body.value.entities.includes(GONE), 'gone from search')
  })

  await call('hard_delete_entity (/entities?action=delete)', async (t) => {
    const res = await sdk.post('/entities?action=delete', { urn: GONE })
    t.equal(res.status, 200)
    t.ok(res.body.value.rows >= 2, `${res.body.value.rows} rows`)
    t.equal((await sdk.get(`/aspects/${urlEncode(GONE)}?aspect=datasetKey&version=0`)).status, 404)
  })

  const tally = `${worked.length} SDK calls work`
  t.comment(`${tally}; not served: ${notServed.map(([c, why]) => `${c} (${why})`).join('; ')}`)
  t.equal(worked.length, 32, tally)
})
