/** exists, listUrns, batchGetTotalEntityCount and getCount as DataHub's Python client sends them. */
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples, postJson } from '../helpers/build.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-delete,PROD)'

async function restli(app: CatalogServer, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    headers: { 'content-type': 'application/json', 'x-restli-protocol-version': '2.0.0' },
  })
  return { status: res.statusCode, body: JSON.parse(res.body) }
}

t.test('entity actions answer in DataHub shapes', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'deleteCli', 'bootstrap')
  const post = (url: string, body: unknown) => restli(app, 'POST', url, body)

  t.same((await post('/entities?action=exists', { urn: DS })).body, { value: true })
  t.same((await post('/entities?action=exists', { urn: DS.replace('test-delete', 'absent') })).body, {
    value: false,
  })
  await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: DS,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: '{"removed":true}', contentType: 'application/json' },
    },
  })
  t.same((await post('/entities?action=exists', { urn: DS, includeSoftDelete: false })).body, {
    value: false,
  })
  t.same((await post('/entities?action=exists', { urn: DS, includeSoftDelete: true })).body, { value: true })
  t.equal((await post('/entities?action=exists', { urn: 'nope' })).status, 400)

  const first = await post('/entities?action=listUrns', { entity: 'dataset', start: 0, count: 2 })
  t.equal(first.status, 200)
  t.equal(first.body.value.start, 0)
  t.equal(first.body.value.count, 2)
  t.ok(first.body.value.total >= 4, `total ${first.body.value.total}`)
  t.equal(first.body.value.entities.length, 2)
  t.ok(first.body.value.entities.every((u: string) => u.startsWith('urn:li:dataset:')))
  const rest = await post('/entities?action=listUrns', { entity: 'dataset', start: 2, count: 1000 })
  const all = [...first.body.value.entities, ...rest.body.value.entities]
  t.equal(all.length, first.body.value.total, 'pages cover every dataset once')
  t.same(all, [...all].sort(), 'in URN order')
  t.ok(all.includes(DS))
  const unknown = await post('/entities?action=listUrns', { entity: 'nosuch', start: 0, count: 1 })
  t.equal(unknown.status, 422)
  t.equal(
    (await post('/entities?action=listUrns', { entity: 'dataset' })).status,
    400,
    'start and count required',
  )

  const counts = await post('/entities?action=batchGetTotalEntityCount', { entities: ['dataset', 'tag'] })
  t.same(counts.body, { value: { dataset: first.body.value.total, tag: counts.body.value.tag } })
  t.ok(counts.body.value.tag >= 1)

  const byPost = await post('/aspects?action=getCount', { aspect: 'datasetKey' })
  t.same(byPost.body, { value: first.body.value.total })
  const like = await post('/aspects?action=getCount', {
    aspect: 'status',
    urnLike: 'urn:li:dataset:%test-delete%',
  })
  t.same(like.body, { value: 1 })
  const byGet = await restli(
    app,
    'GET',
    `/aspects?action=getCount&aspect=datasetKey&urnLike=${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:kafka%')}`,
  )
  t.equal(byGet.status, 200)
  t.ok(byGet.body.value >= 1 && byGet.body.value < first.body.value.total, `kafka only: ${byGet.body.value}`)
  t.equal((await post('/aspects?action=getCount', {})).status, 400, 'aspect is required')
})
