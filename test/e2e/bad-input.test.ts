import t, { type Test } from 'tap'
import { build, getJson, postJson } from '../helpers/build.js'

const enc = encodeURIComponent
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,bad.input,PROD)'
const proposal = (over: Record<string, unknown> = {}) => ({
  proposal: {
    entityType: 'dataset',
    entityUrn: DS,
    changeType: 'UPSERT',
    aspectName: 'datasetProperties',
    aspect: { value: JSON.stringify({ description: 'ok' }), contentType: 'application/json' },
    ...over,
  },
})

t.test('bad input gets the DataHub error body, the right status, and stores nothing', async (t) => {
  const { app } = await build(t)
  const ingest = (body: unknown) => postJson(app, '/aspects?action=ingestProposal', body)
  const nothingStored = async (t: Test) => {
    const key = await getJson(app, `/aspects/${enc(DS)}?aspect=datasetKey&version=0`)
    t.equal(key.status, 404, 'no entity was created')
  }
  const expectError = (
    t: Test,
    res: { status: number; body: Record<string, unknown> },
    status: number,
    pattern: RegExp,
  ) => {
    t.equal(res.status, status)
    t.equal(res.body.status, status, 'body status equals the HTTP status')
    t.equal(res.body.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException')
    t.match(res.body.message, pattern)
    t.notMatch(JSON.stringify(res.body), /at .*\.ts:\d+/, 'no stack trace')
  }

  t.test('malformed JSON body: 400', async (t) => {
    const res = await app.inject({
      method: 'POST',
      url: '/aspects?action=ingestProposal',
      headers: { 'content-type': 'application/json' },
      payload: '{"proposal": ',
    })
    expectError(t, { status: res.statusCode, body: res.json() }, 400, /JSON/i)
    await nothingStored(t)
  })

  t.test('missing action parameter: 400 naming it', async (t) => {
    expectError(t, await ingest({}), 400, /Parameter 'proposal' is required/)
  })

  t.test('unknown entity type: 422', async (t) => {
    expectError(
      t,
      await ingest(proposal({ entityType: 'spaceship', entityUrn: 'urn:li:spaceship:x' })),
      422,
      /spaceship/,
    )
  })

  t.test('unknown aspect: 422 naming aspect and entity', async (t) => {
    expectError(
      t,
      await ingest(proposal({ aspectName: 'warpDrive' })),
      422,
      /Unknown aspect warpDrive for entity dataset/,
    )
    await nothingStored(t)
  })

  t.test('URN that does not parse: 400', async (t) => {
    expectError(t, await ingest(proposal({ entityUrn: 'not-a-urn' })), 400, /Invalid urn 'not-a-urn'/)
    expectError(
      t,
      await ingest(proposal({ entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,x' })),
      400,
      /Invalid urn/,
    )
    expectError(
      t,
      await ingest(proposal({ entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,NOWHERE)' })),
      400,
      /origin 'NOWHERE'/,
    )
    expectError(
      t,
      await ingest(proposal({ entityUrn: 'urn:li:dataset:(hive,x,PROD)' })),
      400,
      /platform must be a dataPlatform urn/,
    )
  })

  t.test('URN of another entity type than entityType: 422', async (t) => {
    expectError(
      t,
      await ingest(proposal({ entityUrn: 'urn:li:corpuser:jdoe' })),
      422,
      /URN entity type does not match MCP entity type\. corpuser != dataset/,
    )
  })

  t.test('aspect.value that is not JSON: 400', async (t) => {
    expectError(
      t,
      await ingest(proposal({ aspect: { value: '{nope', contentType: 'application/json' } })),
      400,
      /aspect\.value is not valid JSON/,
    )
    await nothingStored(t)
  })

  t.test('aspect.value led by a byte order mark: 400 whatever its size', async (t) => {
    // Large ones are parsed on worker threads from their UTF-8, whose decoders dropped the mark.
    const description = 'x'.repeat(300_000)
    for (const size of ['small', 'large']) {
      const text = JSON.stringify({ description: size === 'small' ? 'x' : description })
      const res = await ingest(
        proposal({ aspect: { value: `\ufeff${text}`, contentType: 'application/json' } }),
      )
      expectError(t, res, 400, /aspect\.value is not valid JSON/)
    }
    await nothingStored(t)
  })

  t.test('wrong type in the aspect: 422 naming the path', async (t) => {
    const res = await ingest(proposal({ aspect: { value: JSON.stringify({ description: 5 }) } }))
    expectError(
      t,
      res,
      422,
      /Failed to validate record with class com\.linkedin\.dataset\.DatasetProperties: ERROR :: \/description ::/,
    )
    await nothingStored(t)
  })

  t.test('missing required field: 422 naming the path', async (t) => {
    const res = await ingest(
      proposal({ aspectName: 'globalTags', aspect: { value: JSON.stringify({ tagz: [] }) } }),
    )
    expectError(t, res, 422, /com\.linkedin\.common\.GlobalTags: ERROR :: \/tags ::/)
    const nested = await ingest(
      proposal({
        aspectName: 'ownership',
        aspect: { value: JSON.stringify({ owners: [{ type: 'DATAOWNER' }] }) },
      }),
    )
    expectError(t, nested, 422, /ERROR :: \/owners\/0\/owner ::/)
    await nothingStored(t)
  })

  t.test('a URN of the wrong entity type inside a relationship field: 422', async (t) => {
    const value = {
      upstreams: [
        {
          dataset: 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,m,PROD)',
          type: 'TRANSFORMED',
          auditStamp: { time: 0, actor: 'urn:li:corpuser:x' },
        },
      ],
    }
    const res = await ingest(
      proposal({ aspectName: 'upstreamLineage', aspect: { value: JSON.stringify(value) } }),
    )
    expectError(t, res, 422, /\/upstreams\/0\/dataset :: urn type 'mlModel' is not allowed/)
    await nothingStored(t)
  })

  t.test('oversized body: 413', async (t) => {
    const small = await build(t)
    const huge = 'x'.repeat(17 * 1024 * 1024)
    const res = await small.app.inject({
      method: 'POST',
      url: '/aspects?action=ingestProposal',
      payload: proposal({ aspect: { value: JSON.stringify({ description: huge }) } }),
    })
    t.equal(res.statusCode, 413)
    t.equal(res.json().status, 413)
    await nothingStored(t)
  })

  t.test('a batch with one bad proposal stores nothing of the batch', async (t) => {
    const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,bad.batch,PROD)'
    const good = proposal({ entityUrn: other }).proposal
    const bad = proposal({ aspect: { value: JSON.stringify({ description: [] }) } }).proposal
    const res = await postJson(app, '/aspects?action=ingestProposalBatch', { proposals: [good, bad] })
    t.equal(res.status, 422)
    t.match(res.body.message, /proposals\[1\]|DatasetProperties/)
    t.equal((await getJson(app, `/aspects/${enc(other)}?aspect=datasetProperties&version=0`)).status, 404)
  })

  t.test('unknown fields inside a known aspect are dropped, the rest stored (DataHub >= 1.0)', async (t) => {
    const dash = 'urn:li:dashboard:(looker,unknown-field)'
    const value = {
      title: 'Dash',
      description: 'desc',
      notAValidField: 'dropped',
      lastModified: {
        created: { time: 0, actor: 'urn:li:corpuser:x' },
        lastModified: { time: 0, actor: 'urn:li:corpuser:x' },
      },
    }
    const res = await ingest({
      proposal: {
        entityType: 'dashboard',
        entityUrn: dash,
        changeType: 'UPSERT',
        aspectName: 'dashboardInfo',
        aspect: { value: JSON.stringify(value) },
      },
    })
    t.equal(res.status, 200)
    const read = await getJson(app, `/aspects/${enc(dash)}?aspect=dashboardInfo&version=0`)
    const stored = read.body.aspect['com.linkedin.dashboard.DashboardInfo']
    t.equal(stored.title, 'Dash')
    t.equal(stored.description, 'desc')
    t.notOk('notAValidField' in stored)
  })

  t.test('unknown routes and actions get the Rest.li 404 body', async (t) => {
    const res = await getJson(app, '/nowhere')
    t.equal(res.status, 404)
    t.equal(res.body.message, "No root resource defined for path '/nowhere'")
    t.equal((await postJson(app, '/aspects?action=teleport', {})).status, 404)
  })

  t.test('the server keeps serving: a good write after all of that succeeds', async (t) => {
    const res = await ingest(proposal())
    t.equal(res.status, 200)
    t.same(res.body, { value: DS })
  })
})
