import t from 'tap'
import { build, getJson } from '../helpers/build.js'

/** Every REST endpoint of the spec, as the OpenAPI document names it (actions as `?action=`). */
const SPEC_ENDPOINTS: Array<[method: string, path: string]> = [
  ['post', '/aspects?action=ingestProposal'],
  ['post', '/aspects?action=ingestProposalBatch'],
  ['post', '/entities?action=ingest'],
  ['post', '/entities?action=batchIngest'],
  ['get', '/entitiesV2/{*}'],
  ['get', '/entitiesV2'],
  ['get', '/entities/{*}'],
  ['get', '/aspects/{*}'],
  ['post', '/entities?action=browse'],
  ['post', '/entities?action=search'],
  ['post', '/entities?action=autocomplete'],
  ['post', '/aspects?action=getTimeseriesAspectValues'],
  ['get', '/relationships'],
  ['post', '/operations?action=getEsTaskStatus'],
  ['post', '/operations?action=truncateTimeseriesAspect'],
  ['post', '/operations?action=getIndexSizes'],
  ['post', '/operations?action=restoreIndices'],
  ['post', '/gms/operations?action=getEsTaskStatus'],
  ['post', '/gms/test?action=evaluate'],
  ['get', '/config'],
]

t.test('REST docs at /restli/docs list every spec endpoint with its schemas', async (t) => {
  const { app } = await build(t, { auth: true })
  const page = await app.inject({ method: 'GET', url: '/restli/docs' })
  const html =
    page.statusCode === 302 ? await app.inject({ method: 'GET', url: page.headers.location as string }) : page
  t.equal(html.statusCode, 200, 'the docs page renders without a token')
  t.match(html.headers['content-type'], /text\/html/)
  t.match(html.body, /swagger/i)

  const { status, body } = await getJson(app, '/restli/docs/json')
  t.equal(status, 200)
  t.match(body.openapi, /^3\./)
  for (const [method, path] of SPEC_ENDPOINTS) {
    const op = body.paths[path]?.[method]
    t.ok(op, `${method.toUpperCase()} ${path} is documented`)
    if (op && method === 'post' && path !== '/operations?action=getIndexSizes') {
      t.ok(op.requestBody?.content?.['application/json']?.schema, `${path} has its request schema`)
    }
  }
  const ingest = body.paths['/aspects?action=ingestProposal'].post
  t.ok(ingest.responses['200'], 'responses are documented')
  t.match(
    JSON.stringify(ingest.requestBody),
    /entityType/,
    'the proposal schema is the validating TypeBox schema',
  )
  t.ok(body.components.securitySchemes.bearer, 'bearer auth is documented')
})
