import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples, type Json, postJson } from '../helpers/build.js'

/** Every ML query of the spec over DataHub's bootstrap, Feast and SageMaker example data. */

const FEAST_TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,feature_store.driver_hourly_stats)'
const CONV_RATE = 'urn:li:mlFeature:(feature_store.driver_hourly_stats,conv_rate)'
const DRIVER_ID = 'urn:li:mlPrimaryKey:(feature_store.driver_hourly_stats,driver_id)'
const SOURCE = 'urn:li:dataset:(urn:li:dataPlatform:file,data.driver_stats_with_string.parquet,PROD)'
const SCIENCE_MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:science,scienceModel,PROD)'
const SAGEMAKER_MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,the-first-model,PROD)'
const SAGEMAKER_GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,a-model-package-group,PROD)'

async function gql(app: CatalogServer, query: string, variables?: Record<string, unknown>): Promise<Json> {
  const res = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query, variables } })
  const body = JSON.parse(res.body)
  if (res.statusCode !== 200 || body.errors)
    throw new Error(`GraphQL answered ${res.statusCode}: ${res.body}`)
  return body.data
}

t.test('ML queries over the bootstrap, Feast and SageMaker data', async (t) => {
  const { app, store } = await build(t)
  await ingestExamples(app, 'bootstrap', 'feast', 'sagemaker')

  t.test('mlFeature', async (t) => {
    const data = await gql(
      app,
      `query($urn: String!) { mlFeature(urn: $urn) { urn type name featureNamespace description dataType
        properties { description dataType version { versionTag } sources { urn name } }
        tags { tags { tag { urn name } } } status { removed } exists } }`,
      { urn: CONV_RATE },
    )
    t.same(data.mlFeature, {
      urn: CONV_RATE,
      type: 'MLFEATURE',
      name: 'conv_rate',
      featureNamespace: 'feature_store.driver_hourly_stats',
      description: 'Conv rate',
      dataType: 'CONTINUOUS',
      properties: {
        description: 'Conv rate',
        dataType: 'CONTINUOUS',
        version: null,
        sources: [{ urn: SOURCE, name: 'data.driver_stats_with_string.parquet' }],
      },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:needs_documentation', name: 'needs_documentation' } }] },
      status: { removed: false },
      exists: true,
    })

    // A version tag, as an ingest of the whole aspect sets it.
    const ingest = await postJson(app, '/aspects?action=ingestProposal', {
      proposal: {
        entityType: 'mlFeature',
        entityUrn: CONV_RATE,
        changeType: 'UPSERT',
        aspectName: 'mlFeatureProperties',
        aspect: {
          value: JSON.stringify({
            description: 'Conv rate',
            dataType: 'CONTINUOUS',
            version: { versionTag: '2' },
            sources: [SOURCE],
          }),
          contentType: 'application/json',
        },
      },
    })
    t.equal(ingest.status, 200)
    const versioned = await gql(
      app,
      'query($urn: String!) { mlFeature(urn: $urn) { properties { version { versionTag } } } }',
      {
        urn: CONV_RATE,
      },
    )
    t.same(versioned.mlFeature.properties.version, { versionTag: '2' })
  })

  t.test('mlPrimaryKey', async (t) => {
    const data = await gql(
      app,
      `query($urn: String!) { mlPrimaryKey(urn: $urn) { name featureNamespace description dataType
        properties { description dataType version { versionTag } sources { urn } }
        ownership { owners { owner { ... on CorpGroup { urn name } } type } } } }`,
      { urn: DRIVER_ID },
    )
    t.same(data.mlPrimaryKey, {
      name: 'driver_id',
      featureNamespace: 'feature_store.driver_hourly_stats',
      description: 'Driver ID',
      dataType: 'ORDINAL',
      properties: {
        description: 'Driver ID',
        dataType: 'ORDINAL',
        version: null,
        sources: [{ urn: SOURCE }],
      },
      ownership: {
        owners: [
          { owner: { urn: 'urn:li:corpGroup:MOCK_OWNER', name: 'MOCK_OWNER' }, type: 'BUSINESS_OWNER' },
        ],
      },
    })
  })

  t.test('mlFeatureTable, related entities read in batches', async (t) => {
    // The GraphQL reads go through latestJson (values as text) where the store has it.
    const latest = store.latest.bind(store)
    const latestJson = store.latestJson?.bind(store)
    let reads = 0
    store.latest = (...args: Parameters<typeof store.latest>) => {
      reads++
      return latest(...args)
    }
    if (latestJson) {
      store.latestJson = (...args: Parameters<typeof latestJson>) => {
        reads++
        return latestJson(...args)
      }
    }
    t.teardown(() => {
      store.latest = latest
      if (latestJson) store.latestJson = latestJson
    })
    const data = await gql(
      app,
      `query($urn: String!) { mlFeatureTable(urn: $urn) { name description platform { name }
        properties { description mlFeatures { name description dataType } mlPrimaryKeys { name } } } }`,
      { urn: FEAST_TABLE },
    )
    const table = data.mlFeatureTable
    t.equal(table.name, 'feature_store.driver_hourly_stats')
    t.equal(table.description, null)
    t.same(table.platform, { name: 'feast' })
    t.same(
      table.properties.mlFeatures.map((f: Json) => f.name),
      ['conv_rate', 'acc_rate', 'avg_daily_trips', 'string_feature'],
    )
    t.same(table.properties.mlFeatures[1], {
      name: 'acc_rate',
      description: 'Acc rate',
      dataType: 'CONTINUOUS',
    })
    t.same(table.properties.mlPrimaryKeys, [{ name: 'driver_id' }])
    t.equal(
      reads,
      4,
      'one read for the table, one per entity type for its features, keys and platform (no N+1)',
    )
  })

  t.test('mlModel', async (t) => {
    const query = `query($urn: String!) { mlModel(urn: $urn) { name description origin platform { name }
      properties { description version type mlFeatures groups { urn name } hyperParams { name value } trainingMetrics { name value } } } }`
    const science = await gql(app, query, { urn: SCIENCE_MODEL })
    t.same(science.mlModel, {
      name: 'scienceModel',
      description: 'A sample model for predicting some outcome.',
      origin: 'PROD',
      platform: { name: 'science' },
      properties: {
        description: 'A sample model for predicting some outcome.',
        version: null,
        type: 'Naive Bayes classifier',
        mlFeatures: null,
        groups: [],
        hyperParams: null,
        trainingMetrics: null,
      },
    })
    const sagemaker = await gql(app, query, { urn: SAGEMAKER_MODEL })
    t.same(sagemaker.mlModel.properties.groups, [{ urn: SAGEMAKER_GROUP, name: 'a-model-package-group' }])
    t.same(sagemaker.mlModel.properties.hyperParams, [
      { name: 'parameter-1', value: 'some-value' },
      { name: 'parameter-2', value: 'another-value' },
    ])
    t.same(sagemaker.mlModel.properties.trainingMetrics, [
      { name: 'another-metric', value: '1.0' },
      { name: 'some-metric', value: '1.0' },
    ])
  })

  t.test('mlModelGroup', async (t) => {
    const data = await gql(
      app,
      'query($urn: String!) { mlModelGroup(urn: $urn) { urn type name description origin platform { name } properties { description createdAt } } }',
      { urn: SAGEMAKER_GROUP },
    )
    t.same(data.mlModelGroup, {
      urn: SAGEMAKER_GROUP,
      type: 'MLMODEL_GROUP',
      name: 'a-model-package-group',
      description: 'Just a model package group.',
      origin: 'PROD',
      platform: { name: 'sagemaker' },
      properties: { description: 'Just a model package group.', createdAt: 1420070400000 },
    })
  })

  t.test('a missing ML entity is the key-derived object', async (t) => {
    const urn = 'urn:li:mlModel:(urn:li:dataPlatform:science,noSuchModel,PROD)'
    const data = await gql(
      app,
      'query($urn: String!) { mlModel(urn: $urn) { urn name origin platform { name } properties { description } ownership { owners { type } } exists } }',
      {
        urn,
      },
    )
    t.same(data.mlModel, {
      urn,
      name: 'noSuchModel',
      origin: 'PROD',
      platform: { name: 'science' },
      properties: null,
      ownership: null,
      exists: false,
    })
  })
})
