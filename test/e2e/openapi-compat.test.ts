import t from 'tap'
import { build } from '../helpers/build.js'

const H = { 'content-type': 'application/json', 'x-datahub-client-mode': 'SDK' }
const up = 'urn:li:dataset:(urn:li:dataPlatform:hive,compat.up,PROD)'
const down = 'urn:li:dataset:(urn:li:dataPlatform:hive,compat.down,PROD)'

t.test('bad input gets a 4xx and writes nothing', async (t) => {
  const { app, store } = await build(t)
  const head = await store.head()
  const good = { urn: up, status: { value: { removed: false } } }
  const cases: Array<[string, unknown, RegExp]> = [
    ['malformed urn', [good, { urn: 'urn:li:dataset:nope', status: { value: { removed: false } } }], /./],
    ['unknown aspect', [good, { urn: down, notAnAspect: { value: {} } }], /Unknown aspect notAnAspect/],
    [
      'entity/urn mismatch',
      [good, { urn: 'urn:li:corpuser:jdoe', status: { value: { removed: false } } }],
      /corpuser != dataset/,
    ],
    ['missing urn', [good, { status: { value: { removed: false } } }], /urn/],
    ['schema violation', [good, { urn: down, status: { value: { removed: 'yes' } } }], /removed/],
  ]
  for (const [name, body, message] of cases) {
    const res = await app.inject({
      method: 'POST',
      url: '/openapi/v3/entity/dataset?async=false',
      headers: H,
      payload: JSON.stringify(body),
    })
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `${name}: ${res.statusCode}`)
    t.match(res.json().message, message, name)
    t.equal(res.json().status, res.statusCode)
  }
  t.equal(await store.head(), head, 'the change log did not move')
  t.equal([...(await store.latest([up, down])).values()].flat().length, 0, 'nothing was written')
  const bad = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset/urn:li:dataset:broken' })
  t.equal(bad.statusCode, 400)
  const unknownEntity = await app.inject({ method: 'GET', url: '/openapi/v3/entity/notAnEntity?count=1' })
  t.equal(unknownEntity.statusCode, 400)
  const trace = await app.inject({
    method: 'POST',
    url: '/openapi/v1/trace/write/zz',
    headers: H,
    payload: '{}',
  })
  t.equal(trace.statusCode, 400)
})

t.test('entity and aspect GET, HEAD, DELETE; the SDK DELETE', async (t) => {
  const { app } = await build(t)
  const write = await app.inject({
    method: 'POST',
    url: `/openapi/v3/entity/dataset/${encodeURIComponent(up)}/datasetProperties?systemMetadata=true`,
    headers: H,
    payload: JSON.stringify({ value: { description: 'one' } }),
  })
  t.equal(write.statusCode, 200, write.body)
  t.equal(write.json().datasetProperties.value.description, 'one')
  t.ok(write.json().datasetProperties.auditStamp.time)
  t.equal((await app.inject({ method: 'HEAD', url: `/openapi/v3/entity/dataset/${up}` })).statusCode, 204)
  t.equal(
    (await app.inject({ method: 'HEAD', url: `/openapi/v3/entity/dataset/${up}/datasetProperties` }))
      .statusCode,
    204,
  )
  t.equal(
    (await app.inject({ method: 'HEAD', url: `/openapi/v3/entity/dataset/${up}/ownership` })).statusCode,
    404,
  )
  t.equal((await app.inject({ method: 'HEAD', url: `/openapi/v3/entity/dataset/${down}` })).statusCode, 404)
  const entity = await app.inject({
    method: 'GET',
    url: `/openapi/v3/entity/dataset/${up}?aspects=datasetProperties`,
  })
  t.same(entity.json(), { urn: up, datasetProperties: { value: { description: 'one' } } })
  const all = await app.inject({ method: 'GET', url: `/openapi/v3/entity/dataset/${up}` })
  t.ok(all.json().datasetKey, 'all aspects when none are named')
  const missing = await app.inject({ method: 'GET', url: `/openapi/v3/entity/dataset/${down}` })
  t.equal(missing.statusCode, 404)
  t.equal(missing.headers['not-found-reason'], 'ENTITY')
  const delAspect = await app.inject({
    method: 'DELETE',
    url: `/openapi/v3/entity/dataset/${up}/datasetProperties`,
  })
  t.equal(delAspect.statusCode, 200)
  t.equal(
    (await app.inject({ method: 'GET', url: `/openapi/v3/entity/dataset/${up}/datasetProperties` }))
      .statusCode,
    404,
  )
  // The SDK's DELETE of a key-aspect MCP: DELETE /openapi/v3/entity/{type}/{urn} with body "[]".
  const del = await app.inject({
    method: 'DELETE',
    url: `/openapi/v3/entity/dataset/${up}`,
    headers: H,
    payload: '[]',
  })
  t.equal(del.statusCode, 200, del.body)
  t.equal((await app.inject({ method: 'HEAD', url: `/openapi/v3/entity/dataset/${up}` })).statusCode, 404)
})

t.test('scroll, v2 batch and relationships v1 as the SDK calls them', async (t) => {
  const { app } = await build(t)
  const lineage = {
    upstreams: [
      { dataset: up, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' } },
    ],
  }
  const res = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/dataset?async=false',
    headers: H,
    payload: JSON.stringify([
      { urn: up, status: { value: { removed: false } } },
      { urn: down, upstreamLineage: { value: lineage }, status: { value: { removed: false } } },
    ]),
  })
  t.equal(res.statusCode, 200, res.body)

  const first = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?count=1&aspects=status' })
  t.equal(first.statusCode, 200, first.body)
  t.equal(first.json().totalCount, 2)
  t.same(first.json().entities, [{ urn: down, status: { value: { removed: false } } }])
  const second = await app.inject({
    method: 'POST',
    url: `/openapi/v3/entity/dataset/scroll?count=1&scrollId=${first.json().scrollId}`,
    headers: H,
    payload: JSON.stringify({ aspects: ['status'] }),
  })
  t.same(
    second.json().entities.map((e: { urn: string }) => e.urn),
    [up],
  )
  const end = await app.inject({
    method: 'GET',
    url: `/openapi/v3/entity/dataset?count=1&scrollId=${second.json().scrollId}`,
  })
  t.same(end.json().entities, [])
  t.notOk(end.json().scrollId, 'no scrollId after the last page')
  const queried = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?query=compat.up' })
  t.same(
    queried.json().entities.map((e: { urn: string }) => e.urn),
    [up],
    'a query goes to the search index',
  )

  const v2 = await app.inject({
    method: 'POST',
    url: '/openapi/v2/entity/batch/dataset',
    headers: { ...H, accept: 'application/json' },
    payload: JSON.stringify({ urns: [down], aspectNames: ['upstreamLineage'], withSystemMetadata: false }),
  })
  t.equal(v2.statusCode, 200, v2.body)
  t.equal(v2.json().entities[0].aspects.upstreamLineage.value.upstreams[0].dataset, up)

  const rel = await app.inject({
    method: 'GET',
    url: `/openapi/relationships/v1/?urn=${encodeURIComponent(down)}&direction=OUTGOING&relationshipTypes=DownstreamOf&start=0`,
  })
  t.equal(rel.statusCode, 200, rel.body)
  t.same(rel.json().entities, [{ relationshipType: 'DownstreamOf', urn: up }])
  t.equal(rel.json().count, 1)
  const next = await app.inject({
    method: 'GET',
    url: `/openapi/relationships/v1/?urn=${encodeURIComponent(up)}&direction=INCOMING&relationshipTypes=DownstreamOf&relationshipTypes=Consumes&start=1`,
  })
  t.equal(next.json().count, 0, 'the SDK stops on an empty page')
})

t.test('the OpenAPI routes are in /restli/docs', async (t) => {
  const { app } = await build(t)
  const doc = (await app.inject({ method: 'GET', url: '/restli/docs/json' })).json()
  for (const [method, path] of [
    ['post', '/openapi/v3/entity/{entityName}'],
    ['patch', '/openapi/v3/entity/{entityName}'],
    ['get', '/openapi/v3/entity/{entityName}'],
    ['post', '/openapi/v3/entity/{entityName}/batchGet'],
    ['get', '/openapi/v3/entity/{entityName}/{*}'],
    ['delete', '/openapi/v3/entity/{entityName}/{*}'],
    ['post', '/openapi/v2/entity/batch/{entityName}'],
    ['get', '/openapi/relationships/v1'],
    ['post', '/openapi/v1/trace/write/{traceId}'],
  ] as const) {
    t.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} is documented`)
  }
  t.ok(doc.paths['/openapi/v3/entity/{entityName}'].post.requestBody.content['application/json'].schema)
})
