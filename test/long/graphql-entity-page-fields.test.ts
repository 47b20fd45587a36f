import t from 'tap'
import { build, ingestExamples, ingestGolden, type Json } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/**
 * Entity-page fields DataHub's web UI reads, from DataHub's golden files: a view's definition,
 * column-level lineage, embeds, a chart's sub type and input fields, a data job's transform
 * logic, a dataset's logical parent, a glossary node's children counts, a group's origin and
 * whether a user is native.
 */

t.test('dataset, chart, dashboard and job page fields from golden files', async (t) => {
  const { app } = await build(t)
  for (const file of [
    'athena__athena_mce_golden.json',
    'looker__golden_test_ingest.json',
    'postgres__postgres_all_db_mces_with_db_golden.json',
    'okta__okta_mces_golden_default_config.json',
    'odcs__odcs_bitol_full_example_mces_golden.json',
  ])
    await ingestGolden(app, file)

  const view = await gql(
    app,
    `{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:athena,test_schema.test_view_1,PROD)") {
      viewProperties { materialized logic formattedLogic language } } }`,
  )
  t.notOk(view.errors, 'no errors')
  t.match(view.data.dataset.viewProperties, {
    materialized: false,
    logic: /^CREATE VIEW "test_schema".test_view_1 AS/,
    formattedLogic: null,
    language: 'SQL',
  })

  const lineage = await gql(
    app,
    `{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:athena,test_schema.test_table,PROD)") {
      fineGrainedLineages { upstreams { urn path } downstreams { urn path } transformOperation } } }`,
  )
  t.notOk(lineage.errors, 'no errors')
  const columns = lineage.data.dataset.fineGrainedLineages
  t.ok(columns.length > 0, `${columns.length} column-level lineages`)
  t.match(columns[0], {
    upstreams: [{ urn: 'urn:li:dataset:(urn:li:dataPlatform:s3,test-bucket/test_table,PROD)' }],
    downstreams: [{ urn: 'urn:li:dataset:(urn:li:dataPlatform:athena,test_schema.test_table,PROD)' }],
  })

  const chart = await gql(
    app,
    `{ chart(urn: "urn:li:chart:(looker,ap-south-1.dashboard_elements.2)") { subTypes { typeNames } embed { renderUrl }
      inputFields { fields { schemaFieldUrn schemaField { fieldPath label nativeDataType type } } } }
      dashboard(urn: "urn:li:dashboard:(looker,ap-south-1.dashboards.1)") { embed { renderUrl } subTypes { typeNames } } }`,
  )
  t.notOk(chart.errors, 'no errors')
  t.same(chart.data.chart.subTypes, { typeNames: ['Look'] })
  t.match(chart.data.chart.inputFields.fields[0], {
    schemaFieldUrn: 'urn:li:schemaField:(urn:li:chart:(looker,ap-south-1.dashboard_elements.2),calc)',
    schemaField: { fieldPath: 'calc', label: 'foobar', nativeDataType: 'string', type: 'STRING' },
  })
  t.same(chart.data.dashboard.embed, { renderUrl: 'https://looker.company.com/embed/dashboards/1' })

  const job = await gql(
    app,
    `{ dataJob(urn: "urn:li:dataJob:(urn:li:dataFlow:(postgres,postgrestest.public.stored_procedures,PROD),add_row_to_metadata_aspect_v2_22b7c21680c08595bac1344d1d357044)") {
      dataTransformLogic { transforms { queryStatement { value language } } } } }`,
  )
  t.notOk(job.errors, 'no errors')
  t.match(job.data.dataJob.dataTransformLogic.transforms[0].queryStatement, {
    value: /insert into metadata_aspect_v2/,
    language: 'SQL',
  })

  const parent = await gql(
    app,
    `{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:postgres,pypl-edw.pp_access_views.tbl_1,PROD)") { logicalParent { urn type } } }`,
  )
  t.same(parent.data.dataset.logicalParent, {
    urn: 'urn:li:dataset:(urn:li:dataPlatform:odcs,53581432-6c55-4ba2-a65f-72344a91553a.tbl,PROD)',
    type: 'DATASET',
  })

  const group = await gql(
    app,
    '{ corpGroup(urn: "urn:li:corpGroup:All%20Employees") { origin { type externalType } } }',
  )
  t.same(group.data.corpGroup.origin, { type: 'EXTERNAL', externalType: 'OKTA' })
})

t.test("a glossary node's children counts; a native user", async (t) => {
  const { app } = await build(t)
  const node = async (name: string, parent?: string) =>
    (
      await gql(app, 'mutation($input: CreateGlossaryEntityInput!) { createGlossaryNode(input: $input) }', {
        input: { id: name, name, ...(parent ? { parentNode: parent } : {}) },
      })
    ).data.createGlossaryNode
  const term = async (name: string, parent: string) =>
    gql(app, 'mutation($input: CreateGlossaryEntityInput!) { createGlossaryTerm(input: $input) }', {
      input: { id: name, name, parentNode: parent },
    })
  const root = await node('Finance')
  await node('Revenue', root)
  await term('ARR', root)
  await term('MRR', root)
  const count = await gql(app, `{ glossaryNode(urn: "${root}") { childrenCount { termsCount nodesCount } } }`)
  t.notOk(count.errors, 'no errors')
  t.same(count.data.glossaryNode.childrenCount, { termsCount: 2, nodesCount: 1 })

  await ingestAspect(app, 'corpuser', 'urn:li:corpuser:native', 'corpUserCredentials', {
    salt: 'c2FsdA==',
    hashedPassword: 'aGFzaA==',
  })
  const users: Json = await gql(
    app,
    '{ corpUser(urn: "urn:li:corpuser:native") { isNativeUser } other: corpUser(urn: "urn:li:corpuser:nobody") { isNativeUser } }',
  )
  t.same(users.data, { corpUser: { isNativeUser: true }, other: { isNativeUser: false } })
  t.notOk(JSON.stringify(users).includes('aGFzaA'), 'credentials never answered')
})

t.test("an ML model's card from DataHub's bootstrap example", async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const answer = await gql(
    app,
    `{ mlModel(urn: "urn:li:mlModel:(urn:li:dataPlatform:science,scienceModel,PROD)") {
      intendedUse { primaryUses primaryUsers outOfScopeUses }
      metrics { performanceMeasures decisionThreshold }
      trainingData { dataset motivation preProcessing }
      evaluationData { dataset motivation }
      ethicalConsiderations { data humanLife mitigations risksAndHarms useCases }
      caveatsAndRecommendations { caveats { caveatDescription } recommendations idealDatasetCharacteristics }
      cost { costType costValue { costId costCode } }
      factorPrompts { relevantFactors { groups } }
      quantitativeAnalyses { unitaryResults { ... on StringBox { stringValue } } }
      sourceCode { sourceCode { type sourceCodeUrl } } } }`,
  )
  t.notOk(answer.errors, 'no errors')
  t.same(answer.data.mlModel, {
    intendedUse: {
      primaryUses: ['Sample Model', 'Primary Use'],
      primaryUsers: ['ENTERPRISE'],
      outOfScopeUses: ['Production Deployment'],
    },
    metrics: { performanceMeasures: ['performanceMeasures'], decisionThreshold: ['decisionThreshold'] },
    trainingData: [
      {
        dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,pageViewsHive,PROD)',
        motivation: 'For science!',
        preProcessing: ['Aggregation'],
      },
    ],
    evaluationData: [
      { dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,pageViewsHive,PROD)', motivation: null },
    ],
    ethicalConsiderations: {
      data: ['data'],
      humanLife: ['humanLife'],
      mitigations: ['mitigations'],
      risksAndHarms: ['risksAndHarms'],
      useCases: ['useCases'],
    },
    caveatsAndRecommendations: {
      caveats: null,
      recommendations: 'recommendations',
      idealDatasetCharacteristics: ['idealDatasetCharacteristics'],
    },
    cost: { costType: 'ORG_COST_TYPE', costValue: { costId: null, costCode: 'sampleCostCode' } },
    factorPrompts: null,
    quantitativeAnalyses: null,
    sourceCode: null,
  })
})

t.test('lastIngested: when an ingestion run last wrote the entity', async (t) => {
  const { app } = await build(t)
  const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,synced,PROD)'
  const MANUAL = 'urn:li:dataset:(urn:li:dataPlatform:hive,edited,PROD)'
  const write = (urn: string, aspectName: string, value: Json, systemMetadata?: Json) =>
    app.inject({
      method: 'POST',
      url: '/aspects?action=ingestProposal',
      payload: {
        proposal: {
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName,
          aspect: { value: JSON.stringify(value), contentType: 'application/json' },
          ...(systemMetadata ? { systemMetadata } : {}),
        },
      },
    })
  await write(
    DS,
    'datasetProperties',
    { name: 'synced' },
    { runId: 'hive-run-1', lastObserved: 1_700_000_000_000 },
  )
  await write(DS, 'schemaMetadata', schema(), { runId: 'hive-run-2', lastObserved: 1_700_000_500_000 })
  // A later edit without a run (a UI edit) is no ingestion.
  await write(DS, 'editableDatasetProperties', { description: 'edited' })
  await write(MANUAL, 'datasetProperties', { name: 'edited' })
  const answer = await gql(
    app,
    `{ a: dataset(urn: "${DS}") { lastIngested } b: dataset(urn: "${MANUAL}") { lastIngested } }`,
  )
  t.same(answer.data, { a: { lastIngested: 1_700_000_500_000 }, b: { lastIngested: null } })
})

function schema(): Json {
  return {
    schemaName: 'synced',
    platform: 'urn:li:dataPlatform:hive',
    version: 0,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: [
      { fieldPath: 'id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } },
    ],
  }
}
