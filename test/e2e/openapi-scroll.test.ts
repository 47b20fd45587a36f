import t, { type Test } from 'tap'
import { build, type Json } from '../helpers/build.js'

const H = { 'content-type': 'application/json', 'x-datahub-client-mode': 'SDK' }
const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`

/** Six datasets on two platforms, three of them about orders, and a chart about orders. */
const DATASETS: Array<[string, string, string]> = [
  ['hive', 'shop.orders', 'Daily orders of the shop'],
  ['hive', 'shop.customers', 'Customer master data'],
  ['hive', 'shop.orders_archive', 'Orders older than a year'],
  ['snowflake', 'dwh.orders_2024', 'Orders of 2024'],
  ['snowflake', 'dwh.users', 'Users of the web site'],
  ['snowflake', 'dwh.sales', 'Sales by region'],
]
const ORDERS = DATASETS.filter(([, name]) => name.includes('orders')).map(([p, n]) => ds(p, n))
const HIVE = DATASETS.filter(([p]) => p === 'hive').map(([p, n]) => ds(p, n))
const ALL = DATASETS.map(([p, n]) => ds(p, n))
const CHART = 'urn:li:chart:(looker,orders_dashboard.chart1)'

async function seed(t: Test) {
  const built = await build(t)
  const body = DATASETS.map(([platform, name, description]) => ({
    urn: ds(platform, name),
    datasetProperties: { value: { name, description, customProperties: {} } },
  }))
  const res = await built.app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/dataset?async=false',
    headers: H,
    payload: JSON.stringify(body),
  })
  t.equal(res.statusCode, 200, res.body)
  const chart = await built.app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/chart?async=false',
    headers: H,
    payload: JSON.stringify([
      {
        urn: CHART,
        chartInfo: {
          value: {
            title: 'Orders dashboard',
            description: 'orders',
            lastModified: {
              created: { time: 0, actor: 'urn:li:corpuser:x' },
              lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
            },
          },
        },
      },
    ]),
  })
  t.equal(chart.statusCode, 200, chart.body)
  return built
}

const urnsOf = (body: Json): string[] => body.entities.map((e: { urn: string }) => e.urn)
const namesOf = (body: Json): string[] =>
  body.entities.map((e: Json) => e.datasetProperties.value.name as string)

t.test('a query scrolls the matching subset only', async (t) => {
  const { app } = await seed(t)
  const res = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?query=orders&count=10' })
  t.equal(res.statusCode, 200, res.body)
  t.same(urnsOf(res.json()).sort(), [...ORDERS].sort())
  t.equal(res.json().totalCount, 3)
  t.notOk(res.json().scrollId, 'one page holds them all')
  t.ok(res.json().entities[0].datasetProperties, 'entities carry their aspects')

  const projected = await app.inject({
    method: 'GET',
    url: '/openapi/v3/entity/dataset?query=customers&aspects=datasetKey',
  })
  t.same(projected.json().entities, [
    {
      urn: ds('hive', 'shop.customers'),
      datasetKey: { value: { platform: 'urn:li:dataPlatform:hive', name: 'shop.customers', origin: 'PROD' } },
    },
  ])
  const none = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?query=nothingmatches' })
  t.equal(none.statusCode, 200)
  t.same(none.json(), { entities: [], totalCount: 0 })
})

t.test('sorting by a field, both orders (sortCriteria and the deprecated sort)', async (t) => {
  const { app } = await seed(t)
  const names = DATASETS.map(([, n]) => n).sort()
  const asc = await app.inject({
    method: 'GET',
    url: '/openapi/v3/entity/dataset?sortCriteria=name&sortOrder=ASCENDING',
  })
  t.equal(asc.statusCode, 200, asc.body)
  t.same(namesOf(asc.json()), names)
  const desc = await app.inject({
    method: 'GET',
    url: '/openapi/v3/entity/dataset?sortCriteria=name&sortOrder=DESCENDING',
  })
  t.same(namesOf(desc.json()), [...names].reverse())
  const legacy = await app.inject({
    method: 'GET',
    url: '/openapi/v3/entity/dataset?sort=name&sortOrder=DESCENDING',
  })
  t.same(namesOf(legacy.json()), [...names].reverse())
  const queried = await app.inject({
    method: 'GET',
    url: '/openapi/v3/entity/dataset?query=orders&sortCriteria=name&sortOrder=DESCENDING',
  })
  t.same(namesOf(queried.json()), ['shop.orders_archive', 'shop.orders', 'dwh.orders_2024'])
  // The plain listing sorts by urn both ways, from the store.
  const byUrn = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?sortOrder=DESCENDING' })
  t.same(urnsOf(byUrn.json()), [...ALL].sort().reverse())
  t.equal(byUrn.json().totalCount, 6)
})

t.test('filters in the POST /scroll body, over one or several types', async (t) => {
  const { app } = await seed(t)
  const filter = { or: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] }
  const res = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/scroll?count=10',
    headers: H,
    payload: JSON.stringify({ entities: ['dataset'], filter, aspects: ['datasetProperties'] }),
  })
  t.equal(res.statusCode, 200, res.body)
  t.same(urnsOf(res.json()).sort(), [...HIVE].sort())
  t.same(Object.keys(res.json().entities[0]).sort(), ['datasetProperties', 'urn'])
  const sorted = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/scroll',
    headers: H,
    payload: JSON.stringify({
      entities: ['dataset'],
      filter,
      sortCriteria: [{ field: 'name', order: 'DESCENDING' }],
    }),
  })
  t.same(namesOf(sorted.json()), ['shop.orders_archive', 'shop.orders', 'shop.customers'])
  const negated = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/dataset/scroll?query=orders',
    headers: H,
    payload: JSON.stringify({
      filter: { or: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'], negated: true }] }] },
    }),
  })
  t.same(urnsOf(negated.json()), [ds('snowflake', 'dwh.orders_2024')])
  const across = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/scroll?query=orders',
    headers: H,
    payload: JSON.stringify({ entities: ['dataset', 'chart'] }),
  })
  t.same(urnsOf(across.json()).sort(), [...ORDERS, CHART].sort())
  t.equal(across.json().totalCount, 4)
})

t.test('scrollId pages until exhausted, with no duplicates', async (t) => {
  const { app } = await seed(t)
  for (const params of [
    'sortCriteria=name',
    'query=*&sortCriteria=name&sortOrder=DESCENDING',
    '',
    'sortOrder=DESCENDING',
  ]) {
    const seen: string[] = []
    let scrollId: string | undefined
    let pages = 0
    do {
      const url = `/openapi/v3/entity/dataset?count=4&${params}${scrollId ? `&scrollId=${scrollId}` : ''}`
      const res = await app.inject({ method: 'GET', url })
      t.equal(res.statusCode, 200, res.body)
      seen.push(...urnsOf(res.json()))
      scrollId = res.json().scrollId
      pages++
    } while (scrollId && pages < 10)
    t.equal(pages, 2, `${params}: two pages of 4`)
    t.equal(new Set(seen).size, seen.length, `${params}: no duplicates`)
    t.same([...seen].sort(), [...ALL].sort(), `${params}: every dataset once`)
  }
  const queried: string[] = []
  let scrollId: string | undefined
  do {
    const res = await app.inject({
      method: 'GET',
      url: `/openapi/v3/entity/dataset?query=orders&count=1${scrollId ? `&scrollId=${scrollId}` : ''}`,
    })
    queried.push(...urnsOf(res.json()))
    scrollId = res.json().scrollId
  } while (scrollId && queried.length < 10)
  t.same(queried.sort(), [...ORDERS].sort())
})

t.test('soft-deleted entities only with includeSoftDelete', async (t) => {
  const { app } = await seed(t)
  const gone = ds('hive', 'shop.orders')
  const del = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/dataset?async=false',
    headers: H,
    payload: JSON.stringify([{ urn: gone, status: { value: { removed: true } } }]),
  })
  t.equal(del.statusCode, 200, del.body)
  const hidden = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?query=orders' })
  t.notOk(urnsOf(hidden.json()).includes(gone))
  t.equal(hidden.json().totalCount, 2)
  const shown = await app.inject({
    method: 'GET',
    url: '/openapi/v3/entity/dataset?query=orders&includeSoftDelete=true',
  })
  t.ok(urnsOf(shown.json()).includes(gone))
})

t.test('bad input gets DataHub status and message', async (t) => {
  const { app } = await seed(t)
  const cases: Array<[string, string, unknown, RegExp]> = [
    [
      'bad sortOrder',
      '/openapi/v3/entity/dataset?sortOrder=UP',
      undefined,
      /^No enum constant com\.linkedin\.metadata\.query\.filter\.SortOrder\.UP$/,
    ],
    ['negative count', '/openapi/v3/entity/dataset?count=-1', undefined, /count/],
    [
      'unknown sort field',
      '/openapi/v3/entity/dataset?sortCriteria=nope',
      undefined,
      /Unknown sort field 'nope'/,
    ],
    [
      'bad scrollId',
      '/openapi/v3/entity/dataset?query=orders&scrollId=zzz',
      undefined,
      /Invalid scrollId: zzz/,
    ],
    ['unknown entity', '/openapi/v3/entity/notAnEntity?query=x', undefined, /Unknown entity: notAnEntity/],
    ['bad query', '/openapi/v3/entity/dataset?query=%22unclosed', undefined, /./],
    [
      'unknown filter field',
      '/openapi/v3/entity/scroll',
      { entities: ['dataset'], filter: { or: [{ and: [{ field: 'nope', values: ['x'] }] }] } },
      /Unknown filter field 'nope'/,
    ],
    ['unknown entity in body', '/openapi/v3/entity/scroll', { entities: ['nope'] }, /Unknown entity: nope/],
    [
      'two sort fields',
      '/openapi/v3/entity/dataset?sortCriteria=name&sortCriteria=platform',
      undefined,
      /one field only/,
    ],
  ]
  const head = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?count=100' })
  for (const [name, url, body, message] of cases) {
    const res = await app.inject(
      body === undefined
        ? { method: 'GET', url }
        : { method: 'POST', url, headers: H, payload: JSON.stringify(body) },
    )
    t.equal(res.statusCode, 400, `${name}: ${res.body}`)
    t.equal(res.json().status, 400, name)
    t.match(res.json().message, message, name)
    t.ok(res.json().exceptionClass, name)
  }
  const after = await app.inject({ method: 'GET', url: '/openapi/v3/entity/dataset?count=100' })
  t.same(after.json(), head.json(), 'nothing changed')
})
