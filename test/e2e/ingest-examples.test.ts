import t from 'tap'
import { build, getJson, ingestExamples } from '../helpers/build.js'
import { EXAMPLE_FILES, type ExampleName, loadExample } from '../helpers/examples.js'

const enc = encodeURIComponent
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'

t.test(
  'every record of every example file ingests, and reads back through all four read endpoints',
  async (t) => {
    const { app } = await build(t)
    const names = Object.keys(EXAMPLE_FILES) as ExampleName[]
    const total = names.reduce((n, name) => n + loadExample(name).length, 0)
    t.equal(await ingestExamples(app, ...names), total, `all ${total} records accepted`)

    t.test('entitiesV2: latest aspects, key aspect, created stamps', async (t) => {
      const { status, body } = await getJson(app, `/entitiesV2/${enc(HIVE)}`)
      t.equal(status, 200)
      t.equal(body.urn, HIVE)
      t.equal(body.entityName, 'dataset')
      t.same(body.aspects.datasetKey.value, {
        platform: 'urn:li:dataPlatform:hive',
        name: 'SampleHiveDataset',
        origin: 'PROD',
      })
      t.equal(body.aspects.ownership.name, 'ownership')
      t.equal(body.aspects.ownership.type, 'VERSIONED')
      t.equal(body.aspects.ownership.version, 0)
      t.equal(body.aspects.ownership.value.owners[0].owner, 'urn:li:corpuser:jdoe')
      t.equal(body.aspects.ownership.created.actor, 'urn:li:corpuser:datahub')
      t.type(body.aspects.ownership.created.time, 'number')
      t.ok(body.aspects.schemaMetadata.value.fields.length > 0)
      t.equal(body.aspects.datasetProfile, undefined, 'time-series aspects are not versioned aspects')
      t.same(body.aspects.browsePaths.value.paths, ['/prod/hive'], 'default browse path')
      t.same(
        body.aspects.dataPlatformInstance.value,
        { platform: 'urn:li:dataPlatform:hive' },
        'default dataPlatformInstance',
      )
    })

    t.test('entitiesV2 with aspects=List(...) returns those plus the key aspect', async (t) => {
      const { body } = await getJson(app, `/entitiesV2/${enc(KAFKA)}?aspects=List(ownership,schemaMetadata)`)
      t.same(Object.keys(body.aspects).sort(), ['datasetKey', 'ownership', 'schemaMetadata'])
    })

    t.test('batch get: results keyed by urn, missing aspects absent', async (t) => {
      const bq =
        'urn:li:dataset:(urn:li:dataPlatform:bigquery,bigquery-public-data.covid19_geotab_mobility_impact.us_border_wait_times,PROD)'
      const bq2 =
        'urn:li:dataset:(urn:li:dataPlatform:bigquery,bigquery-public-data.covid19_geotab_mobility_impact.ca_border_wait_times,PROD)'
      const { status, body } = await getJson(
        app,
        `/entitiesV2?ids=List(${enc(bq)},${enc(bq2)})&aspects=List(datasetProperties,ownership)`,
      )
      t.equal(status, 200)
      t.ok(body.results[bq].aspects.datasetProperties)
      t.ok(body.results[bq].aspects.ownership)
      t.ok(body.results[bq2].aspects.datasetProperties)
      t.notOk('ownership' in body.results[bq2].aspects)
      t.same(body.statuses, {})
      t.same(body.errors, {})
    })

    t.test('legacy snapshot: key aspect first, record names', async (t) => {
      const { status, body } = await getJson(app, `/entities/${enc('urn:li:corpuser:jdoe')}`)
      t.equal(status, 200)
      const snap = body.value['com.linkedin.metadata.snapshot.CorpUserSnapshot']
      t.equal(snap.urn, 'urn:li:corpuser:jdoe')
      t.same(snap.aspects[0], { 'com.linkedin.metadata.key.CorpUserKey': { username: 'jdoe' } })
      const info = snap.aspects.find((a: object) => 'com.linkedin.identity.CorpUserInfo' in a)
      t.equal(info['com.linkedin.identity.CorpUserInfo'].displayName, 'John Doe')

      const ds = await getJson(app, `/entities/${enc(HIVE)}`)
      const dsSnap = ds.body.value['com.linkedin.metadata.snapshot.DatasetSnapshot']
      t.ok('com.linkedin.metadata.key.DatasetKey' in dsSnap.aspects[0])
      t.ok(dsSnap.aspects.some((a: object) => 'com.linkedin.schema.SchemaMetadata' in a))
      t.ok(dsSnap.aspects.some((a: object) => 'com.linkedin.common.BrowsePaths' in a))
    })

    t.test('versioned aspect: version 0 with the record name; 404 body when absent', async (t) => {
      const ok = await getJson(app, `/aspects/${enc(HIVE)}?aspect=schemaMetadata&version=0`)
      t.equal(ok.status, 200)
      t.equal(ok.body.version, 0)
      t.ok(ok.body.aspect['com.linkedin.schema.SchemaMetadata'].fields)
      const missing = await getJson(app, `/aspects/${enc(HIVE)}?aspect=schemaMetadata&version=7`)
      t.equal(missing.status, 404)
      t.same(missing.body, {
        exceptionClass: 'com.linkedin.metadata.restli.NonExceptionHttpErrorResponse',
        status: 404,
      })
      const ts = await getJson(app, `/aspects/${enc(HIVE)}?aspect=datasetProfile&version=0`)
      t.equal(ts.status, 404, 'time-series aspects are not served here')
    })

    t.test('ML entities from the examples read back with their key aspects', async (t) => {
      const feature = 'urn:li:mlFeature:(feature_store.driver_hourly_stats,conv_rate)'
      const { body } = await getJson(app, `/entitiesV2/${enc(feature)}`)
      t.same(body.aspects.mlFeatureKey.value, {
        featureNamespace: 'feature_store.driver_hourly_stats',
        name: 'conv_rate',
      })
      t.ok(body.aspects.mlFeatureProperties)
      const model = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,the-first-model,PROD)'
      const m = await getJson(app, `/entities/${enc(model)}`)
      const snap = m.body.value['com.linkedin.metadata.snapshot.MLModelSnapshot']
      t.ok('com.linkedin.metadata.key.MLModelKey' in snap.aspects[0])
    })
  },
)
