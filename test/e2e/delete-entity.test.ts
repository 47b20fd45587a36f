/**
 * Hard deletes and reference deletes as DataHub's Python client sends them
 * (`DataHubGraph.hard_delete_entity`, `hard_delete_timeseries_aspect`,
 * `delete_references_to_urn`; smoke-test `tests/delete/delete_test.py`).
 */
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, getJson, ingestExamples, postJson, postRestli } from '../helpers/build.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-delete,PROD)'
const TAG = 'urn:li:tag:NeedsDocs'
const enc = encodeURIComponent

const profile = (timestampMillis: number) => ({
  proposal: {
    entityType: 'dataset',
    entityUrn: DS,
    changeType: 'UPSERT',
    aspectName: 'datasetProfile',
    aspect: {
      value: JSON.stringify({ timestampMillis, rowCount: timestampMillis }),
      contentType: 'application/json',
    },
  },
})

async function searchHits(app: CatalogServer, input: string): Promise<string[]> {
  const { body } = await postJson(app, '/entities?action=search', {
    entity: 'dataset',
    input,
    start: 0,
    count: 10,
  })
  return body.value.entities as string[]
}

t.test('hard delete: every row, the edges, the search document and the time series go', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'deleteCli')
  for (const ts of [1000, 2000, 3000]) await postJson(app, '/aspects?action=ingestProposal', profile(ts))
  const downstream = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-delete-downstream,PROD)'
  const lineage = {
    upstreams: [{ dataset: DS, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } }],
  }
  await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: downstream,
      changeType: 'UPSERT',
      aspectName: 'upstreamLineage',
      aspect: { value: JSON.stringify(lineage), contentType: 'application/json' },
    },
  })
  t.ok((await searchHits(app, 'test-delete')).includes(DS), 'searchable before')

  const { status, body } = await postRestli(app, '/entities?action=delete', { urn: DS })
  t.equal(status, 200)
  t.equal(body.value.urn, DS)
  t.ok(body.value.rows >= 5, `rows counts every aspect row (${body.value.rows})`)
  t.equal(body.value.timeseriesRows, 3)

  t.equal((await getJson(app, `/aspects/${enc(DS)}?aspect=datasetProperties&version=0`)).status, 404)
  t.equal((await getJson(app, `/aspects/${enc(DS)}?aspect=datasetKey&version=0`)).status, 404)
  t.notOk((await searchHits(app, 'test-delete')).includes(DS), 'the search document is gone')
  const rel = (urn: string, direction: string) =>
    getJson(
      app,
      `/relationships?urn=${enc(urn)}&direction=${direction}&types=List(DownstreamOf,TaggedWith,OwnedBy)`,
    )
  t.equal((await rel(TAG, 'INCOMING')).body.total, 0, 'outgoing edges gone')
  t.equal((await rel(downstream, 'OUTGOING')).body.total, 0, 'incoming edges gone (DataHub removes the node)')
  t.ok(
    (await getJson(app, `/aspects/${enc(downstream)}?aspect=upstreamLineage&version=0`)).status === 200,
    'the referring aspect keeps its value',
  )
  const exists = await postRestli(app, '/entities?action=exists', { urn: DS })
  t.same(exists.body, { value: false })

  const again = await postRestli(app, '/entities?action=delete', { urn: DS })
  t.same(again.body, { value: { urn: DS, rows: 0, timeseriesRows: 0 } }, 'deleting nothing is not an error')
})

t.test('time-series range delete: only the aspect rows in [start, end] go', async (t) => {
  const { app } = await build(t)
  for (const ts of [1000, 2000, 3000, 4000])
    await postJson(app, '/aspects?action=ingestProposal', profile(ts))
  const { status, body } = await postRestli(app, '/entities?action=delete', {
    urn: DS,
    aspectName: 'datasetProfile',
    startTimeMillis: 2000,
    endTimeMillis: 3000,
  })
  t.equal(status, 200)
  t.same(body, { value: { urn: DS, timeseriesRows: 2 } })
  const left = await postJson(app, '/aspects?action=getTimeseriesAspectValues', {
    urn: DS,
    entity: 'dataset',
    aspect: 'datasetProfile',
  })
  t.same(
    left.body.value.values.map(
      (v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).timestampMillis,
    ),
    [4000, 1000],
  )

  const bad = await postRestli(app, '/entities?action=delete', { urn: DS, aspectName: 'datasetProperties' })
  t.equal(bad.status, 400)
  t.match(bad.body, { message: 'Not supported for non-timeseries aspect datasetProperties.', status: 400 })
  const badUrn = await postRestli(app, '/entities?action=delete', { urn: 'not-a-urn' })
  t.equal(badUrn.status, 400)
  t.equal(badUrn.body.status, 400)
  t.equal((await postRestli(app, '/entities?action=delete', {})).status, 400, 'urn is required')
})

t.test('deleteReferences: dry run counts, the real run rewrites the referring aspects', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'deleteCli')
  const dry = await postRestli(app, '/entities?action=deleteReferences', { urn: TAG, dryRun: true })
  t.equal(dry.status, 200)
  t.equal(dry.body.value.total, 1)
  t.match(dry.body.value.relatedAspects[0], {
    entity: DS,
    aspect: 'schemaMetadata',
    relationship: 'SchemaFieldTaggedWith',
  })
  const before = (await getJson(app, `/aspects/${enc(DS)}?aspect=schemaMetadata&version=0`)).body
  t.equal(
    (await postRestli(app, '/entities?action=deleteReferences', { urn: TAG, dryRun: true })).body.value.total,
    1,
    'a dry run changes nothing',
  )

  const real = await postRestli(app, '/entities?action=deleteReferences', { urn: TAG, dryRun: false })
  t.equal(real.body.value.total, 1)
  t.equal(
    (await postRestli(app, '/entities?action=deleteReferences', { urn: TAG, dryRun: true })).body.value.total,
    0,
  )
  const after = (await getJson(app, `/aspects/${enc(DS)}?aspect=schemaMetadata&version=0`)).body
  t.notMatch(JSON.stringify(after), /NeedsDocs/, 'the reference is gone from the latest value')
  t.same(
    (await getJson(app, `/aspects/${enc(DS)}?aspect=schemaMetadata&version=1`)).body.aspect,
    before.aspect,
    'the previous value is kept as a version',
  )
  t.equal(
    (await getJson(app, `/aspects/${enc(TAG)}?aspect=tagProperties&version=0`)).status,
    200,
    'the tag stays',
  )
})
