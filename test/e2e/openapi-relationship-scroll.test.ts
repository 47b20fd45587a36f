/**
 * DataHub's generic relationship API (`GenericRelationshipController`): `GET
 * /openapi/v3/relationship/scroll` replayed as the Python SDK's `scroll_relationships` sends it
 * (`requests` params: repeated keys, `quote_plus` encoding, booleans as `true`/`false`), the
 * older `/{relationshipType}` and `/{entityName}/{entityUrn}` forms, the v2 prefix and bad input.
 */
import t, { type Test } from 'tap'
import { build } from '../helpers/build.js'
import { pyJson, sdkSession, urlEncode } from '../helpers/sdk-session.js'

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,rel_scroll.${name},PROD)`
const RAW = ds('raw')
const CLEAN = ds('clean')
const MART = ds('mart')
const GONE = ds('gone')
const JDOE = 'urn:li:corpuser:jdoe'
const TAG = 'urn:li:tag:RelScrollPii'
const audit = { time: 0, actor: 'urn:li:corpuser:unknown' }

const mcp = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: pyJson(value), contentType: 'application/json' },
})
const upstreams = (...urns: string[]) => ({
  upstreams: urns.map((dataset) => ({ auditStamp: audit, dataset, type: 'TRANSFORMED' })),
})

/** `urllib.parse.urlencode(params, doseq=True)` as `requests` builds the query string. */
function query(params: Record<string, string | number | boolean | string[]>): string {
  const quotePlus = (v: string) => urlEncode(v).replace(/%20/g, '+').replace(/~/g, '%7E').replace(/%7E/g, '~')
  return Object.entries(params)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${quotePlus(k)}=${quotePlus(String(x))}`))
    .join('&')
}

type Sdk = ReturnType<typeof sdkSession>
type Params = Record<string, string | number | boolean | string[]>

/** `scroll_relationships(...)` once: the SDK sends only the arguments it was given. */
const scrollOnce = (sdk: Sdk, params: Params) => sdk.get(`/openapi/v3/relationship/scroll?${query(params)}`)

/** Every page, following `scrollId` as a caller of `scroll_relationships` does; edges as `type source destination`. */
async function scrollAll(t: Test, sdk: Sdk, params: Params): Promise<string[]> {
  const seen: string[] = []
  let scrollId: string | undefined
  for (let i = 0; i < 20; i++) {
    const res = await scrollOnce(sdk, { ...params, ...(scrollId ? { scrollId } : {}) })
    t.equal(res.status, 200, JSON.stringify(res.body))
    for (const r of res.body.results) seen.push(`${r.relationshipType} ${r.source.urn} ${r.destination.urn}`)
    scrollId = res.body.scrollId ?? undefined
    if (!scrollId) break
  }
  return seen
}

async function seed(t: Test) {
  const built = await build(t)
  const sdk = sdkSession(built.app)
  const proposals = [
    mcp(CLEAN, 'upstreamLineage', upstreams(RAW)),
    mcp(MART, 'upstreamLineage', upstreams(CLEAN, RAW)),
    mcp(GONE, 'upstreamLineage', upstreams(RAW)),
    mcp(GONE, 'status', { removed: true }),
    mcp(CLEAN, 'ownership', {
      owners: [{ owner: JDOE, type: 'DATAOWNER' }],
      ownerTypes: {},
      lastModified: audit,
    }),
    mcp(MART, 'globalTags', { tags: [{ tag: TAG }] }),
  ]
  const res = await sdk.post('/aspects?action=ingestProposalBatch', { proposals, async: 'false' })
  t.equal(res.status, 200, JSON.stringify(res.body))
  return { ...built, sdk }
}

t.test('scroll_relationships: DataHub edge order, every page once, the fields the SDK reads', async (t) => {
  const { sdk } = await seed(t)
  const first = await scrollOnce(sdk, { relationshipTypes: ['DownstreamOf'], count: 2 })
  t.equal(first.status, 200)
  t.same(first.body.results, [
    {
      relationshipType: 'DownstreamOf',
      source: { urn: CLEAN, entityType: 'dataset' },
      destination: { urn: RAW, entityType: 'dataset' },
    },
    {
      relationshipType: 'DownstreamOf',
      source: { urn: MART, entityType: 'dataset' },
      destination: { urn: CLEAN, entityType: 'dataset' },
    },
  ])
  t.type(first.body.scrollId, 'string')
  t.same(await scrollAll(t, sdk, { relationshipTypes: ['DownstreamOf'], count: 1 }), [
    `DownstreamOf ${CLEAN} ${RAW}`,
    `DownstreamOf ${MART} ${CLEAN}`,
    `DownstreamOf ${MART} ${RAW}`,
  ])
  const everything = await scrollOnce(sdk, {})
  t.equal(everything.status, 200)
  t.same(
    everything.body.results.map((r: { relationshipType: string }) => r.relationshipType),
    ['OwnedBy', 'DownstreamOf', 'DownstreamOf', 'DownstreamOf', 'TaggedWith'],
    'no filter: all types, by source then destination',
  )
  t.notOk(everything.body.scrollId, 'the last page has no scrollId')
  t.same(everything.body.results[0].destination, { urn: JDOE, entityType: 'corpuser' })
})

t.test('scroll_relationships filters: entity types and URNs at each end', async (t) => {
  const { sdk } = await seed(t)
  t.same(await scrollAll(t, sdk, { destinationTypes: ['corpuser', 'tag'] }), [
    `OwnedBy ${CLEAN} ${JDOE}`,
    `TaggedWith ${MART} ${TAG}`,
  ])
  t.same(await scrollAll(t, sdk, { sourceUrns: [MART], destinationTypes: ['dataset'] }), [
    `DownstreamOf ${MART} ${CLEAN}`,
    `DownstreamOf ${MART} ${RAW}`,
  ])
  t.same(await scrollAll(t, sdk, { destinationUrns: [RAW, JDOE], sourceTypes: ['dataset'], count: 1 }), [
    `OwnedBy ${CLEAN} ${JDOE}`,
    `DownstreamOf ${CLEAN} ${RAW}`,
    `DownstreamOf ${MART} ${RAW}`,
  ])
  t.same(await scrollAll(t, sdk, { relationshipTypes: ['DownstreamOf'], sourceTypes: ['chart'] }), [])
})

t.test('soft-deleted entities: their edges only with include_soft_delete', async (t) => {
  const { sdk } = await seed(t)
  const into = { destinationUrns: [RAW] }
  t.notOk((await scrollAll(t, sdk, into)).some((e) => e.includes(GONE)))
  t.same(await scrollAll(t, sdk, { ...into, includeSoftDelete: 'false' }), await scrollAll(t, sdk, into))
  t.same(await scrollAll(t, sdk, { ...into, includeSoftDelete: 'true', pitKeepAlive: '5m' }), [
    `DownstreamOf ${CLEAN} ${RAW}`,
    `DownstreamOf ${GONE} ${RAW}`,
    `DownstreamOf ${MART} ${RAW}`,
  ])
})

t.test('slices: disjoint, and together every edge', async (t) => {
  const { sdk } = await seed(t)
  const all = await scrollAll(t, sdk, {})
  const parts = [
    ...(await scrollAll(t, sdk, { sliceId: 0, sliceMax: 2, count: 1 })),
    ...(await scrollAll(t, sdk, { sliceId: 1, sliceMax: 2, count: 1 })),
  ]
  t.same([...parts].sort(), [...all].sort())
  t.same(await scrollAll(t, sdk, { sliceId: 1 }), all, 'sliceId alone does not slice')
})

t.test('the older forms and the v2 prefix', async (t) => {
  const { sdk } = await seed(t)
  const byType = await sdk.get('/openapi/v3/relationship/OwnedBy')
  t.equal(byType.status, 200)
  t.same(byType.body.results, [
    {
      relationshipType: 'OwnedBy',
      source: { urn: CLEAN, entityType: 'dataset' },
      destination: { urn: JDOE, entityType: 'corpuser' },
    },
  ])
  const v2 = await sdk.get('/openapi/v2/relationship/DownstreamOf?count=2')
  t.equal(v2.status, 200)
  t.equal(v2.body.results.length, 2)
  const rest = await sdk.get(`/openapi/v2/relationship/DownstreamOf?count=2&scrollId=${v2.body.scrollId}`)
  t.same(
    rest.body.results.map((r: { source: { urn: string } }) => r.source.urn),
    [MART],
  )
  const outgoing = await sdk.get(`/openapi/v3/relationship/dataset/${urlEncode(MART)}`)
  t.same(
    outgoing.body.results.map((r: { relationshipType: string }) => r.relationshipType),
    ['DownstreamOf', 'DownstreamOf', 'TaggedWith'],
    'OUTGOING by default, all types',
  )
  const incoming = await sdk.get(
    `/openapi/v3/relationship/dataset/${urlEncode(RAW)}?direction=incoming&${query({ 'relationshipType[]': ['DownstreamOf'] })}`,
  )
  t.same(
    incoming.body.results.map((r: { source: { urn: string } }) => r.source.urn),
    [CLEAN, MART],
  )
})

t.test('bad input is a 400 with the error body', async (t) => {
  const { sdk } = await seed(t)
  const bad: Array<[string, RegExp]> = [
    [`/openapi/v3/relationship/scroll?${query({ sourceUrns: ['not-a-urn'] })}`, /Invalid urn/],
    [
      `/openapi/v3/relationship/scroll?${query({ destinationTypes: ['noSuchEntity'] })}`,
      /Unknown entity: noSuchEntity/,
    ],
    ['/openapi/v3/relationship/scroll?scrollId=garbage', /Invalid scrollId/],
    ['/openapi/v3/relationship/scroll?count=-1', /count/],
    ['/openapi/v3/relationship/scroll?count=100000', /count/],
    ['/openapi/v3/relationship/scroll?sliceId=0&sliceMax=1', /sliceMax must be greater than 1/],
    ['/openapi/v3/relationship/scroll?sliceId=2&sliceMax=2', /sliceId/],
    ['/openapi/v3/relationship/scroll?includeSoftDelete=maybe', /includeSoftDelete/],
    [
      `/openapi/v3/relationship/dataset/${urlEncode(RAW)}?direction=SIDEWAYS`,
      /Direction must be INCOMING or OUTGOING/,
    ],
    ['/openapi/v3/relationship/dataset/nope', /Invalid urn/],
  ]
  for (const [url, message] of bad) {
    const res = await sdk.get(url)
    t.equal(res.status, 400, url)
    t.equal(res.body?.status, 400, url)
    t.match(res.body?.message, message, url)
  }
  const zero = await scrollOnce(sdk, { count: 0 })
  t.same([zero.status, zero.body], [200, { results: [] }], 'count 0 is an empty page')
})

t.test('with authentication on, the scroll needs a token', async (t) => {
  const { app, adminToken } = await build(t, { auth: true })
  t.equal((await sdkSession(app).get('/openapi/v3/relationship/scroll')).status, 401)
  const res = await sdkSession(app, adminToken).get('/openapi/v3/relationship/scroll')
  t.equal(res.status, 200)
  t.ok(res.body.results.length > 0, 'the bootstrap policies and roles are related')
})
