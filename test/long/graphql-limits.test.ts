import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples, type Json } from '../helpers/build.js'

/** Limits sized for DataHub's web UI, abuse still refused, malformed requests, GraphiQL. */

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)'

async function post(app: CatalogServer, payload: string | Json): Promise<{ status: number; body: Json }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  })
  return { status: res.statusCode, body: JSON.parse(res.body) }
}

const BAD_REQUEST = { code: 400, type: 'BAD_REQUEST', classification: 'ValidationError' }

t.test('a fragment counts once towards the complexity limit, however often it is spread', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bootstrap')
  const fragment = `fragment F on Dataset { ${Array.from({ length: 100 }, (_, i) => `f${i}: name`).join(' ')} }`
  const aliases = Array.from({ length: 30 }, (_, i) => `d${i}: dataset(urn: "${HIVE}") { ...F }`).join(' ')
  // 30 + 100 fields written; 3030 once expanded (refused before, when every spread was counted).
  const res = await post(app, { query: `query Spread { ${aliases} } ${fragment}` })
  t.equal(res.status, 200)
  t.notOk(res.body.errors, JSON.stringify(res.body.errors?.[0]))
  t.equal(res.body.data.d29.f99, 'SampleHiveDataset')

  // The same fields written out at every alias are 3030 selections: over DataHub's 2000.
  const inline = Array.from(
    { length: 30 },
    (_, i) =>
      `d${i}: dataset(urn: "${HIVE}") { ${Array.from({ length: 100 }, (_, j) => `f${j}: name`).join(' ')} }`,
  ).join(' ')
  const written = await post(app, { query: `query Inline { ${inline} }` })
  t.match(written.body.errors[0].message, /^Query complexity 3030 \(field selections\) of operation 'Inline'/)
  t.equal(written.body.data, null)
})

t.test('990 aliases of entities(urns:) are bounded to 500 URNs per request', async (t) => {
  const { app } = await build(t)
  const urns = Array.from({ length: 500 }, (_, i) => `urn:li:tag:t${i}`)
  const aliases = Array.from({ length: 990 }, (_, i) => `e${i}: entities(urns: $u) { urn }`).join(' ')
  const started = Date.now()
  const res = await post(app, { query: `query Many($u: [String!]!) { ${aliases} }`, variables: { u: urns } })
  t.equal(res.status, 200)
  const answered = Object.values(res.body.data as Record<string, unknown[] | null>).filter((v) => v !== null)
  t.equal(answered.length, 1, 'one alias answered: its 500 URNs are the whole budget')
  t.equal((answered[0] as unknown[]).length, 500)
  t.equal(res.body.errors.length, 989)
  t.match(res.body.errors[0], {
    message: 'entities takes at most 500 urns in one request, over all its aliases',
    extensions: { code: 400, type: 'BAD_REQUEST' },
  })
  t.ok(Date.now() - started < 10_000, `answered in ${Date.now() - started} ms`)
})

t.test('malformed requests answer a GraphQL error over HTTP 200', async (t) => {
  const { app } = await build(t)
  const cases: [string, string][] = [
    ['{}', 'The request has no query'],
    ['{"query": null}', 'The request has no query'],
    ['{"query": ""}', 'The request has no query'],
    ['{"query": 5}', 'The query must be a string, not number'],
    ['{"query": {"a": 1}}', 'The query must be a string, not object'],
    ['{"query": "{ __typename }", "operationName": 5}', 'The operationName must be a string, not number'],
    ['{"query": "{ __typename }", "operationName": "x"}', 'Unknown operation named "x".'],
    [
      '{"query": "query A { __typename } query B { __typename }"}',
      'Must provide operation name if query contains multiple operations.',
    ],
    ['[]', 'body must be object'],
  ]
  for (const [payload, message] of cases) {
    const res = await post(app, payload)
    t.equal(res.status, 200, payload)
    t.same(res.body, { data: null, errors: [{ message, extensions: BAD_REQUEST }] }, payload)
  }
  const get = await app.inject({ method: 'GET', url: '/api/graphql' })
  t.equal(get.statusCode, 200)
  t.same(JSON.parse(get.body).errors[0], { message: 'The request has no query', extensions: BAD_REQUEST })
  const named = await post(app, {
    query: 'query A { __typename } query B { __typename }',
    operationName: 'B',
  })
  t.same(named.body, { data: { __typename: 'Query' } }, 'a well-formed request still runs')
})

t.test('GraphiQL at /api/graphiql, public; the API behind it is not', async (t) => {
  const { app, adminToken } = await build(t, { auth: true })
  const page = await app.inject({ method: 'GET', url: '/api/graphiql' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /text\/html/)
  t.match(page.body, /<title>GraphiQL · Catalog<\/title>/)
  // Bundled with the web UI (apps/web): its scripts are the catalog's own, no CDN.
  t.notMatch(page.body, /unpkg|cdn|https?:\/\//)
  const scripts = [...page.body.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1] ?? '')
  t.ok(scripts.length > 0, 'the page loads its script from /assets/')
  for (const src of scripts) {
    const script = await app.inject({ method: 'GET', url: src })
    t.equal(script.statusCode, 200, src)
    t.notMatch(script.body, 'https://unpkg.com', 'the script fetches nothing from a CDN')
  }
  const api = await app.inject({ method: 'POST', url: '/api/graphql', payload: { query: '{ __typename }' } })
  t.equal(api.statusCode, 401, 'the API still needs a token')
  const withToken = await app.inject({
    method: 'POST',
    url: '/api/graphql',
    headers: { authorization: `Bearer ${adminToken}` },
    payload: { query: '{ __typename }' },
  })
  t.same(JSON.parse(withToken.body), { data: { __typename: 'Query' } })
})
