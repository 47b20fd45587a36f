import t from 'tap'
import { build, type Json } from '../helpers/build.js'

/** The headers DataHub's Python SDK (DataHubGraph, client mode SDK) sends on every request. */
const SDK_HEADERS = {
  'user-agent': 'DataHub-Client/1.0 (sdk; sdk/unknown; 1.2.0.1) python-requests/2.32.3',
  'x-datahub-client-mode': 'SDK',
  'x-datahub-py-cli-version': '1.2.0.1',
  'x-restli-protocol-version': '2.0.0',
  'content-type': 'application/json',
  accept: '*/*',
}

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,openapi.sdk_table,PROD)'
const SM = { lastObserved: 1700000000000, runId: 'sdk-run-1', properties: { clientId: 'sdk' } }

/** The body OpenApiRequest.from_mcp builds for one MCP (aspect, systemMetadata, headers). */
function mcpBody(urn: string, aspect: string, value: unknown, headers: Record<string, string> = {}) {
  return JSON.stringify([{ urn, [aspect]: { value, systemMetadata: SM, headers } }])
}

t.test('/config makes the SDK pick OpenAPI: version >= 1.0.1, noCode, patchCapable', async (t) => {
  const { app } = await build(t)
  const res = await app.inject({ method: 'GET', url: '/config', headers: SDK_HEADERS })
  const body = res.json()
  t.equal(body.noCode, 'true')
  t.equal(body.patchCapable, true)
  const version = body.versions['acryldata/datahub'].version as string
  const [major, minor, patch] = (/^v?(\d+)\.(\d+)\.(\d+)/.exec(version) ?? []).slice(1).map(Number)
  t.ok([major, minor, patch] >= [1, 0, 1] && (major ?? 0) >= 1, `${version} is at least 1.0.1`)
})

t.test('emit_mcp over OpenAPI: POST, traceparent, trace status, read back', async (t) => {
  const { app, store } = await build(t)
  const props = { description: 'written by the SDK', customProperties: { a: '1' } }
  const res = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/dataset?async=false',
    headers: SDK_HEADERS,
    payload: mcpBody(DS, 'datasetProperties', props, { 'X-DataHub-Sync-Index-Update': 'true' }),
  })
  t.equal(res.statusCode, 200, res.body)
  const traceparent = res.headers.traceparent as string
  t.match(traceparent, /^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/)
  const traceId = traceparent.split('-')[1] as string
  const micros = Number.parseInt(traceId.slice(0, 16), 16)
  t.ok(Math.abs(micros / 1000 - Date.now()) < 60_000, 'the trace id starts with the write time in µs')
  const written: Json = res.json()
  t.same(
    written,
    [{ urn: DS, datasetProperties: { value: props } }],
    'extract_trace_data finds urn and aspect',
  )

  const rows = (await store.latest([DS])).get(DS) ?? []
  const stored = rows.find((r) => r.aspect === 'datasetProperties')
  t.same(stored?.value, props)
  t.match(stored?.systemMetadata, { runId: 'sdk-run-1', lastObserved: 1700000000000 })
  t.ok(
    rows.some((r) => r.aspect === 'datasetKey'),
    'the key aspect is written with the first aspect',
  )

  // ASYNC_WAIT polls the trace until nothing is PENDING.
  const trace = await app.inject({
    method: 'POST',
    url: `/openapi/v1/trace/write/${traceId}?onlyIncludeErrors=false&detailed=true`,
    headers: SDK_HEADERS,
    payload: JSON.stringify({ [DS]: ['datasetProperties'] }),
  })
  t.equal(trace.statusCode, 200, trace.body)
  t.same(trace.json(), {
    [DS]: {
      datasetProperties: {
        success: true,
        primaryStorage: { writeStatus: 'ACTIVE_STATE' },
        searchStorage: { writeStatus: 'ACTIVE_STATE' },
      },
    },
  })
  const onlyErrors = await app.inject({
    method: 'POST',
    url: `/openapi/v1/trace/write/${traceId}?onlyIncludeErrors=true`,
    headers: SDK_HEADERS,
    payload: JSON.stringify({ [DS]: ['datasetProperties'] }),
  })
  t.same(onlyErrors.json(), {}, 'no errors to report')

  // A later write replaces the traced value: the old trace now says HISTORIC_STATE.
  await new Promise((r) => setTimeout(r, 5))
  const again = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/dataset?async=true',
    headers: SDK_HEADERS,
    payload: mcpBody(DS, 'datasetProperties', { description: 'second' }),
  })
  t.equal(again.statusCode, 202, 'async answers 202 as DataHub does (the write is durable already)')
  const old = await app.inject({
    method: 'POST',
    url: `/openapi/v1/trace/write/${traceId}?onlyIncludeErrors=false&detailed=true`,
    headers: SDK_HEADERS,
    payload: JSON.stringify({ [DS]: ['datasetProperties'] }),
  })
  t.equal(old.json()[DS].datasetProperties.primaryStorage.writeStatus, 'HISTORIC_STATE')

  // get_entities: batchGet with systemMetadata.
  const got = await app.inject({
    method: 'POST',
    url: '/openapi/v3/entity/dataset/batchGet?systemMetadata=true',
    headers: { ...SDK_HEADERS, accept: 'application/json' },
    payload: JSON.stringify([{ urn: DS, datasetProperties: {} }]),
  })
  t.equal(got.statusCode, 200, got.body)
  const [entity] = got.json()
  t.same(Object.keys(entity).sort(), ['datasetProperties', 'urn'])
  t.same(entity.datasetProperties.value, { description: 'second' })
  t.equal(entity.datasetProperties.systemMetadata.runId, 'sdk-run-1')
})

t.test('emit_mcp PATCH: the SDK patch body through the ingest PATCH machinery', async (t) => {
  const { app } = await build(t)
  const patch = [
    { op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } },
    { op: 'add', path: '/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } },
  ]
  const res = await app.inject({
    method: 'PATCH',
    url: '/openapi/v3/entity/dataset?async=false',
    headers: SDK_HEADERS,
    payload: mcpBody(DS, 'globalTags', { patch }),
  })
  t.equal(res.statusCode, 200, res.body)
  t.ok(res.headers.traceparent)
  const remove = await app.inject({
    method: 'PATCH',
    url: `/openapi/v3/entity/dataset/${DS}/globalTags`,
    headers: { ...SDK_HEADERS, 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify([{ op: 'remove', path: '/tags/urn:li:tag:pii' }]),
  })
  t.equal(remove.statusCode, 200, remove.body)
  const aspect = await app.inject({ method: 'GET', url: `/openapi/v3/entity/dataset/${DS}/globalTags` })
  t.same(aspect.json(), { value: { tags: [{ tag: 'urn:li:tag:gold' }] } })
  const noPatch = await app.inject({
    method: 'PATCH',
    url: '/openapi/v3/entity/dataset',
    headers: SDK_HEADERS,
    payload: mcpBody(DS, 'globalTags', { tags: [] }),
  })
  t.equal(noPatch.statusCode, 400)
  t.match(noPatch.json().message, /Missing `patch` field/)
})

t.test('a Rest.li ingestProposal and the v3 POST of the same aspect write the same rows', async (t) => {
  const { app, store } = await build(t)
  const a = 'urn:li:dataset:(urn:li:dataPlatform:hive,same.a,PROD)'
  const b = 'urn:li:dataset:(urn:li:dataPlatform:hive,same.b,PROD)'
  const value = { description: 'same', name: 'same' }
  for (let i = 0; i < 2; i++) {
    const v = { ...value, description: `same ${i}` }
    const restli = await app.inject({
      method: 'POST',
      url: '/aspects?action=ingestProposal',
      headers: SDK_HEADERS,
      payload: {
        proposal: {
          entityType: 'dataset',
          entityUrn: a,
          changeType: 'UPSERT',
          aspectName: 'datasetProperties',
          aspect: { value: JSON.stringify(v), contentType: 'application/json' },
          systemMetadata: SM,
        },
        async: 'false',
      },
    })
    t.equal(restli.statusCode, 200, restli.body)
    const v3 = await app.inject({
      method: 'POST',
      url: '/openapi/v3/entity/dataset?async=false',
      headers: SDK_HEADERS,
      payload: mcpBody(b, 'datasetProperties', v),
    })
    t.equal(v3.statusCode, 200, v3.body)
  }
  const rows = await store.latest([a, b])
  const shape = (urn: string) =>
    (rows.get(urn) ?? [])
      .map((r) => ({
        aspect: r.aspect,
        version: r.version,
        value: r.value,
        systemMetadata: r.systemMetadata,
      }))
      .map((r) => JSON.parse(JSON.stringify(r).replaceAll('same.a', 'same.X').replaceAll('same.b', 'same.X')))
      // Default aspects are stamped with the time of their write, which differs by a few ms.
      .map((r) =>
        r.systemMetadata?.runId === 'no-run-id-provided'
          ? { ...r, systemMetadata: { ...r.systemMetadata, lastObserved: 0 } }
          : r,
      )
      .sort((x, y) => x.aspect.localeCompare(y.aspect))
  t.ok(shape(a).length >= 2)
  t.same(shape(b), shape(a), 'same aspects, versions, values and systemMetadata')
  const v1a = await store.version(a, 'datasetProperties', 1)
  const v1b = await store.version(b, 'datasetProperties', 1)
  t.equal(v1a?.value.description, 'same 0')
  t.equal(v1b?.value.description, 'same 0', 'the overwritten value is kept as version 1 either way')
})
