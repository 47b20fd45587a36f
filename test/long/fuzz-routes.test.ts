import t from 'tap'
import { build, type Json } from '../helpers/build.js'

const ODD_URNS = [
  'urn:li:dataset:)',
  'urn:li:dataset:(urn:li:dataPlatform:hive,x',
  '%ED%A0%80',
  `urn%3Ali%3Atag%3A${'x'.repeat(3000)}`,
  '%',
  '..%2F..%2Fetc%2Fpasswd',
  'urn:li:corpuser:%00',
  'urn:li:::',
]

const HUGE = 'h'.repeat(200_000)
const DEEP = `${'['.repeat(5000)}${']'.repeat(5000)}`

/** Bodies: malformed JSON, wrong top-level types, wrong member types, huge and deep values. */
const BODIES: Array<{ name: string; payload: string }> = [
  { name: 'malformed JSON', payload: '{"proposal": {' },
  { name: 'not JSON at all', payload: '\u0000\u0001garbage' },
  { name: 'array', payload: '[1,2,3]' },
  { name: 'string', payload: '"just a string"' },
  { name: 'number', payload: '12345678901234567890' },
  { name: 'null', payload: 'null' },
  { name: 'deeply nested', payload: DEEP },
  { name: 'non-finite numbers', payload: '{"start":1e400,"count":-1e400,"limit":1e400,"maxHops":1e400}' },
  {
    name: 'wrong member types',
    payload: JSON.stringify({
      urn: 5,
      urns: 'x',
      proposal: 'x',
      proposals: {},
      entity: [],
      entities: 7,
      input: [],
      query: {},
      entity_type: 3,
      start: -1,
      count: 1e12,
      filter: 'x',
      orFilters: 'x',
      types: 9,
      direction: 'SIDEWAYS',
      maxHops: -5,
      aspectName: 1,
      aspect: 'x',
      variables: 'x',
      operationName: 9,
    }),
  },
  {
    name: 'huge values',
    payload: JSON.stringify({
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,${HUGE},PROD)`,
      query: HUGE,
      input: HUGE,
      entity: HUGE,
      proposal: { entityType: HUGE, entityUrn: HUGE, aspectName: HUGE, changeType: HUGE },
      count: Number.MAX_SAFE_INTEGER,
      start: Number.MAX_SAFE_INTEGER,
      types: Array.from({ length: 10_000 }, () => 'DownstreamOf'),
    }),
  },
  {
    name: 'odd URNs in a proposal',
    payload: JSON.stringify({
      proposal: {
        entityType: 'dataset',
        entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,a\ud800b,PROD)',
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { value: '{"removed":false}', contentType: 'application/json' },
      },
    }),
  },
]

const QUERIES = [
  '',
  'urn=urn%3Ali%3Adataset%3A)&direction=OUTGOING&types=DownstreamOf',
  'urn=%ED%A0%80&aspect=%ED%A0%80&version=-1',
  `urn=${'u'.repeat(5000)}&start=-1&count=99999999999999999999`,
  'types=List(&direction=UP&start=abc&count=&aspects=List(a,,b',
  'query=%00&entity=%FF&filter=%7B&limit=1e400',
]

function fill(path: string, urn: string): string {
  return path.replace(/:[A-Za-z]+/g, 'dataset').replace(/\*/g, urn)
}

t.test(
  'every route, fed malformed JSON, wrong types, huge values and odd URNs, never answers 500',
  async (t) => {
    const { app, routes } = await build(t)
    t.ok(routes.length >= 40, `the route table lists ${routes.length} routes`)
    t.ok(
      routes.some((r) => r.path === '/aspects' && r.action === 'ingestProposal'),
      'action routes are listed with their action',
    )
    const failures: string[] = []
    let calls = 0
    for (const route of routes) {
      for (const urn of route.path.includes('*') || route.path.includes(':') ? ODD_URNS : ['']) {
        const base = fill(route.path, urn)
        for (const query of QUERIES) {
          const params = [route.action ? `action=${route.action}` : '', query].filter(Boolean).join('&')
          const url = params ? `${base}?${params}` : base
          const bodies = route.method === 'GET' || route.method === 'DELETE' ? [undefined] : BODIES
          for (const body of bodies) {
            calls++
            const res = await app.inject({
              method: route.method as 'GET',
              url,
              ...(body ? { payload: body.payload, headers: { 'content-type': 'application/json' } } : {}),
            })
            const where = `${route.method} ${url.slice(0, 120)}${body ? ` [${body.name}]` : ''}`
            if (res.statusCode >= 500)
              failures.push(`${where} -> ${res.statusCode} ${res.body.slice(0, 200)}`)
            else if (res.statusCode >= 400 && res.headers['content-type']?.toString().includes('json')) {
              const b = res.json() as Json
              if (b.status !== res.statusCode || typeof b.exceptionClass !== 'string') {
                failures.push(
                  `${where} -> ${res.statusCode} without DataHub's error body: ${res.body.slice(0, 200)}`,
                )
              }
            }
          }
        }
      }
    }
    t.same(failures, [], `${calls} hostile calls, none answered 500 or a non-DataHub error body`)

    const health = await app.inject({ url: '/health' })
    t.equal(health.statusCode, 200, 'the server stays healthy')
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,after.fuzz,PROD)'
    const write = await app.inject({
      method: 'POST',
      url: '/aspects?action=ingestProposal',
      payload: {
        proposal: {
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName: 'status',
          aspect: { value: '{"removed":false}', contentType: 'application/json' },
        },
      },
    })
    t.equal(write.statusCode, 200, 'and still takes writes')
    const read = await app.inject({ url: `/aspects/${encodeURIComponent(urn)}?aspect=status&version=0` })
    t.equal(read.statusCode, 200, 'and reads them back')
  },
)
