import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { adminWrite, aspectOf, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, ingestExamples, ingestGolden, type Json } from '../helpers/build.js'
import { badRequest, gql, ingestAspect, snapshot } from '../helpers/mutation-kit.js'

/**
 * Data-quality signals over GraphQL, as DataHub serves them: assertions (dbt's tests and their
 * results, ingested from DataHub's dbt golden file, on the dataset page and in its health; the
 * external-assertion API that data-quality tools call: `upsertCustomAssertion`,
 * `reportAssertionResult`, `deleteAssertion`) and reported operations (`reportOperation`).
 */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-tags-terms-sample-kafka,PROD)'
const DBT_ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:dbt,calm-pagoda-323403.jaffle_shop.orders,PROD)'
const DBT_ASSERTION = 'urn:li:assertion:b052a324c05327985f3b579a19ad7579'

const ASSERTIONS = `query($urn: String!) { dataset(urn: $urn) { assertions(start: 0, count: 100) {
  start count total assertions { urn type platform { urn } info { type description externalUrl
    datasetAssertion { datasetUrn scope fields { urn path } aggregation operator
      parameters { value { value type } } nativeType }
    customAssertion { type entityUrn field { urn path } logic } source { type } }
  runEvents(status: COMPLETE, limit: 10) { total failed succeeded errored
    runEvents { timestampMillis runId asserteeUrn status result { type externalUrl nativeResults { key value } error { type properties { key value } } } } } } } } }`

const UPSERT = `mutation($urn: String, $input: UpsertCustomAssertionInput!) {
  upsertCustomAssertion(urn: $urn, input: $input) { urn type platform { urn }
    info { type description externalUrl source { type } customAssertion { type entityUrn field { urn path } logic } } } }`
const REPORT = `mutation($urn: String!, $result: AssertionResultInput!) { reportAssertionResult(urn: $urn, result: $result) }`

/** DataHub's `/entities?action=exists`. */
async function exists(app: CatalogServer, urn: string): Promise<boolean> {
  const res = await app.inject({ method: 'POST', url: '/entities?action=exists', payload: { urn } })
  return JSON.parse(res.body).value
}

t.test("dbt's tests and their results on the dataset they assert on", async (t) => {
  const { app } = await build(t)
  await ingestGolden(app, 'dbt__dbt_test_events_golden.json')
  const answer = await gql(app, ASSERTIONS, { urn: DBT_ORDERS })
  t.notOk(answer.errors, 'no errors')
  const page = answer.data.dataset.assertions
  t.ok(page.total >= 1, `the dataset has assertions (${page.total})`)
  const accepted = page.assertions.find((a: Json) => a.urn === DBT_ASSERTION)
  t.match(accepted, {
    type: 'ASSERTION',
    platform: { urn: 'urn:li:dataPlatform:dbt' },
    info: {
      type: 'DATASET',
      datasetAssertion: {
        datasetUrn: DBT_ORDERS,
        scope: 'DATASET_COLUMN',
        fields: [{ urn: `urn:li:schemaField:(${DBT_ORDERS},status)`, path: 'status' }],
        aggregation: 'IDENTITY',
        operator: 'IN',
        parameters: { value: { type: 'SET' } },
      },
      customAssertion: null,
    },
  })
  const runs = accepted.runEvents
  t.ok(runs.total >= 1, 'its runs')
  t.equal(runs.total, runs.succeeded + runs.failed + runs.errored, 'every run counted once')
  t.match(runs.runEvents[0], {
    asserteeUrn: DBT_ORDERS,
    status: 'COMPLETE',
    result: { type: /SUCCESS|FAILURE/ },
  })
  const times = runs.runEvents.map((e: Json) => e.timestampMillis)
  t.same(
    times,
    [...times].sort((a: number, b: number) => b - a),
    'newest first',
  )

  const health = await gql(app, `{ dataset(urn: "${DBT_ORDERS}") { health { type status message } } }`)
  t.match(health.data.dataset.health, [
    { type: 'ASSERTIONS', status: /^(PASS|FAIL)$/, message: /assertions/ },
  ])
  const root = await gql(app, `{ assertion(urn: "${DBT_ASSERTION}") { urn info { type } } }`)
  t.same(root.data.assertion, { urn: DBT_ASSERTION, info: { type: 'DATASET' } }, 'the assertion root query')
  const search = await gql(
    app,
    '{ searchAcrossEntities(input: {query: "*", count: 50}) { searchResults { entity { type } } } }',
  )
  t.notOk(
    search.data.searchAcrossEntities.searchResults.some((r: Json) => r.entity.type === 'ASSERTION'),
    'assertions are not among the default search types, as in DataHub',
  )
})

t.test('upsertCustomAssertion, reportAssertionResult and deleteAssertion', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  const input = {
    entityUrn: DS,
    type: 'Data Freshness',
    description: 'Rows land within the hour',
    fieldPath: 'field_foo',
    platform: { name: 'great-expectations' },
    externalUrl: 'https://dq.example.com/checks/7',
    logic: 'max(updated_at) > now() - interval 1 hour',
  }
  const created = await gql(app, UPSERT, { urn: 'urn:li:assertion:fresh-1', input })
  t.notOk(created.errors, 'no errors')
  t.same(created.data.upsertCustomAssertion, {
    urn: 'urn:li:assertion:fresh-1',
    type: 'ASSERTION',
    platform: { urn: 'urn:li:dataPlatform:great-expectations' },
    info: {
      type: 'CUSTOM',
      description: 'Rows land within the hour',
      externalUrl: 'https://dq.example.com/checks/7',
      source: { type: 'EXTERNAL' },
      customAssertion: {
        type: 'Data Freshness',
        entityUrn: DS,
        field: { urn: `urn:li:schemaField:(${DS},field_foo)`, path: 'field_foo' },
        logic: 'max(updated_at) > now() - interval 1 hour',
      },
    },
  })
  const generated = await gql(app, UPSERT, {
    input: {
      entityUrn: DS,
      type: 'Volume',
      description: 'Not empty',
      platform: { urn: 'urn:li:dataPlatform:dbt' },
    },
  })
  const generatedUrn = generated.data.upsertCustomAssertion.urn
  t.match(generatedUrn, /^urn:li:assertion:[0-9a-f-]{36}$/, 'a new urn without one')
  const updated = await gql(app, UPSERT, {
    urn: 'urn:li:assertion:fresh-1',
    input: { ...input, description: 'Rows land within 30 minutes', fieldPath: null, logic: null },
  })
  t.match(updated.data.upsertCustomAssertion.info, {
    description: 'Rows land within 30 minutes',
    customAssertion: { field: null, logic: null },
  })

  const report = (result: Json, urn = 'urn:li:assertion:fresh-1') => gql(app, REPORT, { urn, result })
  t.same(await report({ timestampMillis: 1_700_000_000_000, type: 'SUCCESS' }), {
    data: { reportAssertionResult: true },
  })
  await report({
    timestampMillis: 1_700_000_060_000,
    type: 'FAILURE',
    externalUrl: 'https://dq.example.com/runs/2',
    properties: [{ key: 'rows_late', value: '12' }],
  })
  await report({
    timestampMillis: 1_700_000_120_000,
    type: 'ERROR',
    error: { type: 'SOURCE_QUERY_FAILED', message: 'timeout' },
  })
  const page = (await gql(app, ASSERTIONS, { urn: DS })).data.dataset.assertions
  t.same(
    page.assertions.map((a: Json) => a.urn).sort(),
    ['urn:li:assertion:fresh-1', generatedUrn].sort(),
    "the dataset's assertions",
  )
  const fresh = page.assertions.find((a: Json) => a.urn === 'urn:li:assertion:fresh-1')
  t.same(
    { ...fresh.runEvents, runEvents: undefined },
    { total: 3, failed: 1, succeeded: 1, errored: 1, runEvents: undefined },
    'counts',
  )
  t.same(fresh.runEvents.runEvents, [
    {
      timestampMillis: 1_700_000_120_000,
      runId: '1700000120000',
      asserteeUrn: DS,
      status: 'COMPLETE',
      result: {
        type: 'ERROR',
        externalUrl: null,
        nativeResults: null,
        error: { type: 'SOURCE_QUERY_FAILED', properties: [{ key: 'message', value: 'timeout' }] },
      },
    },
    {
      timestampMillis: 1_700_000_060_000,
      runId: '1700000060000',
      asserteeUrn: DS,
      status: 'COMPLETE',
      result: {
        type: 'FAILURE',
        externalUrl: 'https://dq.example.com/runs/2',
        nativeResults: [{ key: 'rows_late', value: '12' }],
        error: null,
      },
    },
    {
      timestampMillis: 1_700_000_000_000,
      runId: '1700000000000',
      asserteeUrn: DS,
      status: 'COMPLETE',
      result: { type: 'SUCCESS', externalUrl: null, nativeResults: null, error: null },
    },
  ])

  const HEALTH = `query($urn: String!) { dataset(urn: $urn) { health { type status message causes } } }`
  const health = async () => (await gql(app, HEALTH, { urn: DS })).data.dataset.health
  t.same(
    await health(),
    [
      {
        type: 'ASSERTIONS',
        status: 'FAIL',
        message: '1 of 2 assertions are failing',
        causes: ['urn:li:assertion:fresh-1'],
      },
    ],
    'health: the latest run of one of the two assertions did not succeed (the other has none)',
  )
  await report({ timestampMillis: 1_700_000_180_000, type: 'SUCCESS' })
  t.same(
    await health(),
    [{ type: 'ASSERTIONS', status: 'PASS', message: 'All assertions are passing', causes: null }],
    'health: it succeeded since',
  )
  // Active incidents come first, worded as DataHub words them (its incidents summary on the
  // entity, each incident's info).
  const incident = (id: string, title: string, time: number) =>
    ingestAspect(app, 'incident', `urn:li:incident:${id}`, 'incidentInfo', {
      type: 'OPERATIONAL',
      title,
      entities: [DS],
      status: { state: 'ACTIVE', lastUpdated: { time, actor: 'urn:li:corpuser:jdoe' } },
      created: { time, actor: 'urn:li:corpuser:jdoe' },
    })
  await incident('late', 'Late load', 1_700_000_300_000)
  await incident('nulls', 'Null ids', 1_700_000_400_000)
  const detail = (id: string, createdAt: number) => ({
    urn: `urn:li:incident:${id}`,
    type: 'OPERATIONAL',
    createdAt,
  })
  await ingestAspect(app, 'dataset', DS, 'incidentsSummary', {
    activeIncidentDetails: [detail('late', 1_700_000_300_000), detail('nulls', 1_700_000_400_000)],
    resolvedIncidentDetails: [],
  })
  const INCIDENTS = `query($urn: String!) { dataset(urn: $urn) { health { type status message causes reportedAt
    activeIncidentHealthDetails { latestIncidentUrn latestIncidentTitle lastActivityAt count } } } }`
  const withIncidents = (await gql(app, INCIDENTS, { urn: DS })).data.dataset.health
  t.same(
    withIncidents[0],
    {
      type: 'INCIDENTS',
      status: 'FAIL',
      message: '2 active incidents',
      causes: ['ACTIVE_INCIDENTS'],
      reportedAt: 1_700_000_400_000,
      activeIncidentHealthDetails: {
        latestIncidentUrn: 'urn:li:incident:nulls',
        latestIncidentTitle: 'Null ids',
        lastActivityAt: 1_700_000_400_000,
        count: 2,
      },
    },
    'health: the active incidents first',
  )
  t.match(withIncidents[1], { type: 'ASSERTIONS', status: 'PASS' }, 'then the assertions')
  await ingestAspect(app, 'dataset', DS, 'incidentsSummary', {
    activeIncidentDetails: [detail('late', 1_700_000_300_000)],
    resolvedIncidentDetails: [detail('nulls', 1_700_000_400_000)],
  })
  t.match((await gql(app, INCIDENTS, { urn: DS })).data.dataset.health[0], {
    message: '1 active incident',
    activeIncidentHealthDetails: { latestIncidentUrn: 'urn:li:incident:late', count: 1 },
  })

  const plain = 'urn:li:dataset:(urn:li:dataPlatform:hive,no_assertions,PROD)'
  t.same(
    (await gql(app, HEALTH, { urn: plain })).data.dataset.health,
    [],
    'health: nothing to say without assertions',
  )

  // Bad input: a clear error, and nothing written.
  const before = await snapshot(app, 'urn:li:assertion:fresh-1')
  const refusals: Array<[string, Json, string]> = [
    [
      'upsertCustomAssertion',
      await gql(app, UPSERT, { urn: 'urn:li:assertion:fresh-1', input: { ...input, platform: {} } }),
      'Failed to upsert Custom Assertion. Platform Name or Platform Urn must be specified.',
    ],
    ['upsertCustomAssertion', await gql(app, UPSERT, { urn: DS, input }), `${DS} is not an assertion urn`],
    [
      'reportAssertionResult',
      await report({ type: 'SUCCESS' }, 'urn:li:assertion:nope'),
      'Failed to report Assertion Run Event. Assertion with urn urn:li:assertion:nope does not exist or is not associated with any entity.',
    ],
  ]
  for (const [field, answer, message] of refusals) {
    t.equal(badRequest(answer, field).message, message, message)
    t.equal(answer.data?.[field] ?? null, null, `${field}: no data`)
  }
  t.equal(await snapshot(app, 'urn:li:assertion:fresh-1'), before, 'the assertion is unchanged')
  t.equal(await exists(app, 'urn:li:assertion:nope'), false, 'no assertion was created')

  t.same(await gql(app, `mutation { deleteAssertion(urn: "urn:li:assertion:fresh-1") }`), {
    data: { deleteAssertion: true },
  })
  t.equal(await exists(app, 'urn:li:assertion:fresh-1'), false, 'deleted')
  const runs = await app.inject({
    method: 'POST',
    url: '/aspects?action=getTimeseriesAspectValues',
    payload: { urn: 'urn:li:assertion:fresh-1', entity: 'assertion', aspect: 'assertionRunEvent' },
  })
  t.same(JSON.parse(runs.body).value.values, [], 'its run events with it')
  const after = (await gql(app, ASSERTIONS, { urn: DS })).data.dataset.assertions
  t.same(
    after.assertions.map((a: Json) => a.urn),
    [generatedUrn],
    'gone from the dataset',
  )
  t.same(
    await gql(app, `mutation { deleteAssertion(urn: "urn:li:assertion:fresh-1") }`),
    {
      data: { deleteAssertion: true },
    },
    'deleting it again is not an error',
  )
})

const REPORT_OPERATION = `mutation($input: ReportOperationInput!) { reportOperation(input: $input) }`
const OPERATIONS = `query($urn: String!) { dataset(urn: $urn) { operations(limit: 5) { timestampMillis
  lastUpdatedTimestamp actor operationType customOperationType sourceType numAffectedRows partition customProperties { key value } } } }`

t.test('reportOperation: an operation of a dataset, as orchestrators report them', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'tagsAndTerms')
  const reported = await gql(app, REPORT_OPERATION, {
    input: {
      urn: DS,
      operationType: 'INSERT',
      sourceType: 'DATA_PROCESS',
      numAffectedRows: 42,
      partition: '2024-01-01',
      customProperties: [{ key: 'job', value: 'nightly' }],
      timestampMillis: 1_700_000_000_000,
    },
  })
  t.same(reported, { data: { reportOperation: 'true' } }, "DataHub's answer: true, as a string")
  await gql(app, REPORT_OPERATION, {
    input: { urn: DS, operationType: 'CUSTOM', customOperationType: 'VACUUM', sourceType: 'DATA_PLATFORM' },
  })
  const operations = (await gql(app, OPERATIONS, { urn: DS })).data.dataset.operations
  t.equal(operations.length, 2)
  t.match(operations[0], {
    actor: 'urn:li:corpuser:datahub',
    operationType: 'CUSTOM',
    customOperationType: 'VACUUM',
    sourceType: 'DATA_PLATFORM',
    numAffectedRows: null,
    partition: null,
  })
  t.equal(operations[0].timestampMillis, operations[0].lastUpdatedTimestamp, 'now, as both times')
  t.ok(operations[0].timestampMillis > 1_700_000_000_000, 'newest first')
  t.same(operations[1], {
    timestampMillis: 1_700_000_000_000,
    lastUpdatedTimestamp: 1_700_000_000_000,
    actor: 'urn:li:corpuser:datahub',
    operationType: 'INSERT',
    customOperationType: null,
    sourceType: 'DATA_PROCESS',
    numAffectedRows: 42,
    partition: '2024-01-01',
    customProperties: [{ key: 'job', value: 'nightly' }],
  })
  const chart = 'urn:li:chart:(looker,test-tags-terms-sample-chart)'
  const before = await snapshot(app, chart)
  const refused = await gql(app, REPORT_OPERATION, {
    input: { urn: chart, operationType: 'INSERT', sourceType: 'DATA_PROCESS' },
  })
  t.same(badRequest(refused, 'reportOperation'), {
    message: 'Unable to report operation. Invalid entity type chart provided.',
    code: 400,
    type: 'BAD_REQUEST',
  })
  t.equal(await snapshot(app, chart), before, 'nothing written')
})

t.test('assertion edits and reported operations need their privilege on the entity', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'asserted', customProperties: {} })
  await adminWrite(built, 'urn:li:corpuser:reader', 'corpUserInfo', { active: true })
  const reader = await tokenFor(built, 'urn:li:corpuser:reader')
  const input = { entityUrn: DS, type: 'Volume', description: 'd', platform: { name: 'dbt' } }
  const refused = await gqlAs(built.app, reader, UPSERT, { urn: 'urn:li:assertion:a1', input })
  t.equal(refused.body.errors?.[0]?.extensions?.code, 403, 'upsert refused')
  t.equal(await aspectOf(built, 'urn:li:assertion:a1', 'assertionInfo'), undefined, 'nothing written')
  const admin = await gqlAs(built.app, built.adminToken as string, UPSERT, {
    urn: 'urn:li:assertion:a1',
    input,
  })
  t.notOk(admin.body.errors, 'the admin may')
  const report = await gqlAs(built.app, reader, REPORT, {
    urn: 'urn:li:assertion:a1',
    result: { type: 'SUCCESS' },
  })
  t.equal(report.body.errors?.[0]?.extensions?.code, 403, 'report refused')
  const del = await gqlAs(built.app, reader, 'mutation { deleteAssertion(urn: "urn:li:assertion:a1") }')
  t.equal(del.body.errors?.[0]?.extensions?.code, 403, 'delete refused')
  t.ok(await aspectOf(built, 'urn:li:assertion:a1', 'assertionInfo'), 'still there')
  const operation = await gqlAs(built.app, reader, REPORT_OPERATION, {
    input: { urn: DS, operationType: 'INSERT', sourceType: 'DATA_PROCESS' },
  })
  t.equal(
    operation.body.errors?.[0]?.extensions?.code,
    403,
    'reportOperation refused without EDIT_ENTITY_OPERATIONS',
  )
})
