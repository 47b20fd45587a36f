import t from 'tap'
import { assignRole, deactivatePolicy, get, tokenFor } from '../helpers/actors.js'
import { build } from '../helpers/build.js'

/**
 * `/openapi/v1/registry/models`: the entity registry as DataHub's EntityRegistryController serves
 * it. The Python SDK's `get_entity_aspect_specs` pages through `entity/specifications` with
 * `start`/`count` until `start >= total`, and reads `name`, `keyAspectName` and each aspect spec's
 * `aspectAnnotation.name` (entity_aspect_specs.py).
 */

const SDK = {
  'content-type': 'application/json',
  'x-restli-protocol-version': '2.0.0',
  'user-agent': 'DataHub-Client/1.0 (sdk; sdk/graph; 1.3.1) python-requests/2.32.3',
}

interface EntityElement {
  name: string
  keyAspectName: string
  keyAspectSpec: { aspectAnnotation: { name: string } }
  aspectSpecs: Array<{ aspectAnnotation: { name: string; timeseries: boolean } }>
  aspectSpecMap: Record<string, unknown>
}

t.test("the SDK's paged read of the entity specs sees every entity type and its aspects", async (t) => {
  const { app, registry } = await build(t)
  // _paginate_offset(url, page_size=100) pages the same way; 30 here makes it take several pages.
  const elements: EntityElement[] = []
  let start = 0
  let calls = 0
  for (;;) {
    const res = await app.inject({
      method: 'GET',
      url: `/openapi/v1/registry/models/entity/specifications?start=${start}&count=30`,
      headers: SDK,
    })
    t.equal(res.statusCode, 200, `page at ${start}`)
    const page = res.json() as { elements: EntityElement[]; count: number; total: number; start: number }
    t.equal(page.start, start)
    elements.push(...page.elements)
    start += page.count
    calls++
    if (page.count === 0 || start >= page.total) break
  }
  const names = elements.map((e) => e.name)
  t.same(names, [...names].sort(), 'sorted by name, as DataHub sorts its map keys')
  t.same(new Set(names), new Set(registry.allEntities().map((e) => e.name)), 'every entity type')
  t.ok(calls >= 2, `${elements.length} entity types in ${calls} pages`)

  const dataset = elements.find((e) => e.name === 'dataset') as EntityElement
  t.equal(dataset.keyAspectName, 'datasetKey')
  t.equal(dataset.keyAspectSpec.aspectAnnotation.name, 'datasetKey')
  const aspects = dataset.aspectSpecs.map((a) => a.aspectAnnotation.name)
  for (const a of ['datasetKey', 'datasetProperties', 'schemaMetadata', 'ownership', 'globalTags'])
    t.ok(aspects.includes(a), `dataset supports ${a}`)
  t.same(Object.keys(dataset.aspectSpecMap).sort(), [...aspects].sort(), 'the map holds the same specs')
  const profile = dataset.aspectSpecs.find((a) => a.aspectAnnotation.name === 'datasetProfile')
  t.equal(profile?.aspectAnnotation.timeseries, true, 'time-series aspects are marked')
})

t.test('one entity, its aspects, and the aspect specs', async (t) => {
  const { app } = await build(t)
  const get = (url: string) => app.inject({ method: 'GET', url, headers: SDK })

  const one = await get('/openapi/v1/registry/models/entity/specifications/dataset')
  t.equal(one.statusCode, 200)
  t.equal(one.json().name, 'dataset')
  const props = one.json().aspectSpecMap.datasetProperties
  t.same(props.searchableFieldSpec.name.pathComponents, ['name'], 'searchable fields keyed by path')
  t.equal(props.searchableFieldSpec.name.annotations.searchableAnnotation.fieldName, 'name')

  const aspects = await get('/openapi/v1/registry/models/entity/specifications/dataset/aspects')
  t.equal(aspects.statusCode, 200)
  t.ok(aspects.json().upstreamLineage.relationshipFieldSpec, 'relationship fields of upstreamLineage')

  const aspectPage = await get('/openapi/v1/registry/models/aspect/specifications?start=0&count=3')
  t.equal(aspectPage.statusCode, 200)
  t.equal(aspectPage.json().count, 3)
  t.ok(aspectPage.json().total > 100, `${aspectPage.json().total} aspects`)
  const single = await get('/openapi/v1/registry/models/aspect/specifications/globalTags')
  t.equal(single.json().aspectAnnotation.name, 'globalTags')
})

t.test('unknown names and out-of-range pages get DataHub errors', async (t) => {
  const { app } = await build(t)
  const get = (url: string) => app.inject({ method: 'GET', url, headers: SDK })
  t.equal((await get('/openapi/v1/registry/models/entity/specifications/notAnEntity')).statusCode, 404)
  t.equal(
    (await get('/openapi/v1/registry/models/entity/specifications/notAnEntity/aspects')).statusCode,
    404,
  )
  t.equal((await get('/openapi/v1/registry/models/aspect/specifications/notAnAspect')).statusCode, 404)
  const beyond = await get('/openapi/v1/registry/models/entity/specifications?start=100000&count=5')
  t.equal(beyond.statusCode, 400)
  t.match(beyond.json().message, /Start offset 100000 exceeds total/)
  t.equal((await get('/openapi/v1/registry/models/entity/specifications?count=-1')).statusCode, 400)
})

t.test(
  "entity names in OpenAPI paths match in any letter case, as DataHub's registry matches them",
  async (t) => {
    const { app } = await build(t)
    const urn = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load_orders)'
    const write = await app.inject({
      method: 'POST',
      url: '/openapi/v3/entity/datajob?async=false',
      headers: SDK,
      payload: JSON.stringify([{ urn, status: { value: { removed: false } } }]),
    })
    t.equal(write.statusCode, 200, write.body)
    const read = await app.inject({
      method: 'GET',
      url: `/openapi/v3/entity/DATAJOB/${encodeURIComponent(urn)}/status`,
      headers: SDK,
    })
    t.equal(read.statusCode, 200, read.body)
    t.same(read.json().value, { removed: false })
    const spec = await app.inject({
      method: 'GET',
      url: '/openapi/v1/registry/models/entity/specifications/datajob',
      headers: SDK,
    })
    t.equal(spec.json().name, 'dataJob')
    const unknown = await app.inject({
      method: 'GET',
      url: '/openapi/v3/entity/datajobs?count=1',
      headers: SDK,
    })
    t.equal(unknown.statusCode, 400)
  },
)

t.test(
  'the registry API needs MANAGE_SYSTEM_OPERATIONS; relationship scrolls need RELATIONSHIP READ',
  async (t) => {
    const built = await build(t, { auth: true })
    const reader = await tokenFor(built, 'urn:li:corpuser:reader')
    await assignRole(built, 'urn:li:corpuser:reader', 'Reader')
    const specs = '/openapi/v1/registry/models/entity/specifications?start=0&count=1'
    const refused = await get(built.app, specs, reader)
    t.equal(refused.status, 403)
    t.equal(refused.body.message, 'urn:li:corpuser:reader is not authorized to get entity models')
    t.equal((await get(built.app, specs, built.adminToken)).status, 200, 'the admin reads it')

    const scroll = '/openapi/v3/relationship/scroll?relationshipTypes=DownstreamOf'
    t.equal((await get(built.app, scroll, reader)).status, 200, 'every user views entity pages by default')
    await deactivatePolicy(built, 'view-entity-page-all')
    // A user with no role now holds no view privilege (a Reader keeps its role's).
    const nobody = await tokenFor(built, 'urn:li:corpuser:nobody')
    const noView = await get(built.app, scroll, nobody)
    t.equal(noView.status, 403)
    t.equal(noView.body.message, 'urn:li:corpuser:nobody is unauthorized to READ RELATIONSHIP')
    const byEntity = `/openapi/v3/relationship/dataset/${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)')}`
    t.equal((await get(built.app, byEntity, nobody)).status, 403, 'nor on one entity')
    t.equal((await get(built.app, scroll, reader)).status, 200, 'the Reader still scrolls')
    t.equal((await get(built.app, scroll, built.adminToken)).status, 200, 'the admin still scrolls')
  },
)
