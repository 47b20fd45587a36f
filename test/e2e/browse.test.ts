import t from 'tap'
import { build, ingestExamples, postJson } from '../helpers/build.js'

const urn = (n: number) => `urn:li:dataset:(urn:li:dataPlatform:kafka,test-browse-${n},PROD)`
const entity = (n: number) => ({ name: urn(n), urn: urn(n) })

t.test('browse of the smoke-test browse data matches DataHub (reference §5.2)', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'browse')
  const browse = (path: string, start = 0, limit = 10) =>
    postJson(app, '/entities?action=browse', { path, entity: 'dataset', start, limit })

  const prod = await browse('/prod')
  t.equal(prod.status, 200)
  t.same(prod.body, {
    value: {
      entities: [entity(3)],
      groups: [
        { name: 'kafka1', count: 3 },
        { name: 'kafka2', count: 2 },
      ],
      metadata: {
        path: '/prod',
        totalNumEntities: 3,
        groups: [
          { name: 'kafka1', count: 3 },
          { name: 'kafka2', count: 2 },
        ],
      },
      from: 0,
      pageSize: 10,
      numEntities: 1,
      numGroups: 2,
      numElements: 3,
    },
  })

  const k1 = await browse('/prod/kafka1')
  t.same(k1.body.value.entities, [entity(1), entity(2), entity(3)])
  t.equal(k1.body.value.numEntities, 3)
  t.same(k1.body.value.groups, [])
  t.equal(k1.body.value.metadata.totalNumEntities, 0)

  const k2 = await browse('/prod/kafka2')
  t.same(k2.body.value.entities, [entity(1), entity(2)])

  const page = await browse('/prod', 1, 2)
  t.same(page.body.value.groups, [{ name: 'kafka2', count: 2 }], 'groups come first')
  t.same(page.body.value.entities, [entity(3)], 'then entities fill the page')
  t.equal(page.body.value.numElements, 3)

  const root = await browse('/')
  t.same(root.body.value.groups, [{ name: 'prod', count: 3 }])
  t.equal(root.body.value.metadata.totalNumEntities, 3)

  const none = await browse('/dev')
  t.same([none.body.value.entities, none.body.value.groups, none.body.value.numElements], [[], [], 0])

  const filtered = await postJson(app, '/entities?action=browse', {
    path: '/prod/kafka1',
    entity: 'dataset',
    start: 0,
    limit: 10,
    filter: { or: [{ and: [{ field: 'urn', value: urn(2), negated: true }] }] },
  })
  t.same(filtered.body.value.entities, [entity(1), entity(3)], 'a filter narrows browse')
})

t.test('default browse paths of datasets without one', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'sampleBq')
  const res = await postJson(app, '/entities?action=browse', {
    path: '/prod/bigquery/bigquery-public-data',
    entity: 'dataset',
    start: 0,
    limit: 10,
  })
  t.same(res.body.value.groups, [{ name: 'covid19_geotab_mobility_impact', count: 2 }])
})
