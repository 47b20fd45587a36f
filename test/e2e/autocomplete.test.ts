import t from 'tap'
import { build, ingestExamples, type Json, postJson } from '../helpers/build.js'

t.test('autocomplete completes partial dataset and ML feature names', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap', 'feast')
  const ac = (entity: string, query: string, limit = 10, extra: Record<string, unknown> = {}) =>
    postJson(app, '/entities?action=autocomplete', { query, entity, limit, ...extra })

  const sample = await ac('dataset', 'SampleH')
  t.equal(sample.status, 200)
  t.equal(sample.body.value.query, 'SampleH')
  t.same(new Set(sample.body.value.suggestions), new Set(['SampleHdfsDataset', 'SampleHiveDataset']))
  t.equal(sample.body.value.entities.length, sample.body.value.suggestions.length, 'parallel lists')
  sample.body.value.suggestions.forEach((s: string, i: number) => {
    t.ok(
      sample.body.value.entities[i].urn.includes(`,${s},`),
      `entities[${i}] is the hit of suggestions[${i}]`,
    )
  })

  const fct = await ac('dataset', 'fct_us')
  t.same(new Set(fct.body.value.suggestions), new Set(['fct_users_created', 'fct_users_deleted']))

  const logging = await ac('dataset', 'loggin')
  t.ok(logging.body.value.suggestions.includes('logging_events'))

  const feature = await ac('mlFeature', 'number_of_v')
  t.same(feature.body.value.suggestions, ['number_of_visits'])
  t.same(feature.body.value.entities, [{ urn: 'urn:li:mlFeature:(user_features,number_of_visits)' }])

  const features = await ac('mlFeature', 'test_BY')
  t.ok(features.body.value.suggestions.length >= 2)
  t.ok(features.body.value.suggestions.every((s: string) => s.startsWith('test_BYTES')))

  const limited = await ac('mlFeature', 'test', 3)
  t.equal(limited.body.value.suggestions.length, 3, 'the limit applies')

  const field = await ac('dataset', 'Sample', 10, { field: 'id' })
  t.ok(field.body.value.suggestions.length >= 3, 'one field asked for')

  const filtered = await ac('dataset', 'Sample', 10, {
    filter: { or: [{ and: [{ field: 'platform', value: 'urn:li:dataPlatform:kafka' }] }] },
  })
  t.same(
    filtered.body.value.entities.map((e: Json) => e.urn),
    ['urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'],
    'a filter narrows suggestions',
  )
  t.same((await ac('dataset', 'zzzzqq')).body.value, { query: 'zzzzqq', suggestions: [], entities: [] })
})
