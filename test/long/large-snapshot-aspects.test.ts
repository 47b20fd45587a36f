import { THREAD_BODY_BYTES } from '@catalog/http-kit'
import t from 'tap'
import { build, getJson, postJson } from '../helpers/build.js'
import { datasetSnapshotBody, schemaMetadata } from '../helpers/wide-schema.js'

// A snapshot (MCE) aspect of 256,000 characters of JSON or more is validated on the large-aspect
// worker, as a proposal's is: what is stored and the errors must be the event loop's.

const enc = encodeURIComponent
const urn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`

function schema(n: number, broken = false) {
  return schemaMetadata(
    Array.from({ length: n }, (_, i) => ({
      fieldPath: `column_${i}`,
      nativeDataType: 'string',
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      description: `the description of column ${i}`,
      globalTags: { tags: [{ tag: `urn:li:tag:t${i}` }] },
      ...(broken && i === n - 1 ? { nullable: 'not a boolean' } : {}),
    })),
  )
}

const snapshot = (name: string, value: unknown) => datasetSnapshotBody(urn(name), name, value, 'wide table')

t.test('a large snapshot aspect is stored as the same aspect sent as a proposal', async (t) => {
  const { app } = await build(t)
  const value = schema(2_000)
  t.ok(JSON.stringify(value).length >= 256_000, 'large enough for the worker')
  t.ok(
    JSON.stringify(snapshot('wide_mce', value)).length >= THREAD_BODY_BYTES,
    'a body the JSON body worker parses, handing the schema over as text',
  )
  const viaSnapshot = await postJson(app, '/entities?action=batchIngest', snapshot('wide_mce', value))
  t.equal(viaSnapshot.status, 200)
  const viaProposal = await postJson(app, '/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn('wide_mcp'),
      changeType: 'UPSERT',
      aspectName: 'schemaMetadata',
      aspect: { contentType: 'application/json', value: JSON.stringify(value) },
    },
  })
  t.equal(viaProposal.status, 200)
  const read = async (name: string) =>
    (await getJson(app, `/aspects/${enc(urn(name))}?aspect=schemaMetadata&version=0`)).body
  const [mce, mcp] = [await read('wide_mce'), await read('wide_mcp')]
  t.equal(mce.aspect['com.linkedin.schema.SchemaMetadata'].fields.length, 2_000)
  t.same(mce.aspect, mcp.aspect, 'the same stored value')
  const outgoing = async (name: string) =>
    (
      await getJson(
        app,
        `/relationships?urn=${enc(urn(name))}&direction=OUTGOING&types=List(SchemaFieldTaggedWith)&count=3000`,
      )
    ).body.relationships
      .map((r: { type: string; entity: string }) => `${r.type} ${r.entity}`)
      .sort()
  const [fromMce, fromMcp] = [await outgoing('wide_mce'), await outgoing('wide_mcp')]
  t.ok(fromMce.length >= 2_000, `${fromMce.length} edges from the snapshot's aspects`)
  t.same(fromMce, fromMcp, 'the same edges from both')
})

t.test('a large snapshot aspect is refused with the message a small one gets', async (t) => {
  const { app } = await build(t)
  const small = await postJson(app, '/entities?action=batchIngest', snapshot('small_bad', schema(3, true)))
  const large = await postJson(
    app,
    '/entities?action=batchIngest',
    snapshot('large_bad', schema(2_000, true)),
  )
  t.equal(small.status, 422)
  t.equal(large.status, small.status)
  t.equal(
    large.body.message,
    small.body.message.replace('/fields/2/', '/fields/1999/'),
    'the same message, naming the field',
  )
  const stored = await getJson(app, `/aspects/${enc(urn('large_bad'))}?aspect=datasetProperties&version=0`)
  t.equal(stored.status, 404, 'nothing of the snapshot stored')
})

t.test('a refused large aspect early in a long batch fails the batch, and the server goes on', async (t) => {
  const { app } = await build(t)
  // The large aspect's refusal comes back from the worker while the rest of the batch is still
  // being read, a turn of the event loop at a time.
  const small = Array.from({ length: 9_999 }, (_, i) => snapshot(`many_${i}`, schema(1)).entities[0])
  const body = { entities: [snapshot('large_first', schema(2_000, true)).entities[0], ...small] }
  const res = await postJson(app, '/entities?action=batchIngest', body)
  t.equal(res.status, 422, JSON.stringify(res.body).slice(0, 300))
  t.match(res.body.message, /\/fields\/1999\/nullable/)
  const after = await getJson(app, `/aspects/${enc(urn('many_0'))}?aspect=datasetProperties&version=0`)
  t.equal(after.status, 404, 'nothing of the batch stored, and the server answers')
})

t.test('a large aspect by ?action=ingest, and large aspects the worker does not take', async (t) => {
  const { app } = await build(t)
  const value = schema(2_000)
  const one = snapshot('wide_one', value).entities[0]
  const single = await postJson(app, '/entities?action=ingest', { entity: one })
  t.equal(single.status, 200, String(JSON.stringify(single.body)).slice(0, 300))
  const read = await getJson(app, `/aspects/${enc(urn('wide_one'))}?aspect=schemaMetadata&version=0`)
  t.equal(read.body.aspect['com.linkedin.schema.SchemaMetadata'].fields.length, 2_000)
  t.equal(read.body.aspect['com.linkedin.schema.SchemaMetadata'].fields[1999].fieldPath, 'column_1999')

  // An aspect record the entity does not have: the same refusal, large or small.
  const foreign = (name: string, n: number) => ({
    entities: [
      {
        value: {
          'com.linkedin.metadata.snapshot.DatasetSnapshot': {
            urn: urn(name),
            aspects: [{ 'com.linkedin.chart.ChartInfo': { title: 'x', description: 'y'.repeat(n) } }],
          },
        },
      },
    ],
  })
  const smallForeign = await postJson(app, '/entities?action=batchIngest', foreign('f', 10))
  const largeForeign = await postJson(app, '/entities?action=batchIngest', foreign('f', 400_000))
  t.equal(smallForeign.status, 422)
  t.same(largeForeign.body, smallForeign.body, 'the same error body')

  // A large time-series aspect is validated on the event loop, as before.
  const profile = {
    timestampMillis: 1_700_000_000_000,
    rowCount: 7,
    fieldProfiles: Array.from({ length: 3_000 }, (_, i) => ({
      fieldPath: `column_${i}`,
      sampleValues: [`a sample value of column ${i} that is long enough to count`],
    })),
  }
  t.ok(JSON.stringify(profile).length >= 256_000, 'a large profile')
  const profiled = await postJson(app, '/entities?action=batchIngest', {
    entities: [
      {
        value: {
          'com.linkedin.metadata.snapshot.DatasetSnapshot': {
            urn: urn('profiled'),
            aspects: [{ 'com.linkedin.dataset.DatasetProfile': profile }],
          },
        },
      },
    ],
  })
  t.equal(profiled.status, 200, String(JSON.stringify(profiled.body)).slice(0, 300))
  const values = await postJson(app, '/aspects?action=getTimeseriesAspectValues', {
    urn: urn('profiled'),
    entity: 'dataset',
    aspect: 'datasetProfile',
  })
  t.equal(values.status, 200)
  const stored = JSON.parse(values.body.value.values[0].aspect.value)
  t.equal(stored.rowCount, 7)
  t.equal(stored.fieldProfiles.length, 3_000)
})
