import { WRITE_LIMITS } from '@catalog/core'
import t, { type Test } from 'tap'
import { build, getJson, postJson } from '../helpers/build.js'

const enc = encodeURIComponent
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,hostile.writes,PROD)'
const RESTLI = 'com.linkedin.restli.server.RestLiServiceException'

const proposal = (over: Record<string, unknown> = {}, value = '{"description":"ok"}') => ({
  entityType: 'dataset',
  entityUrn: DS,
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: { value, contentType: 'application/json' },
  ...over,
})

function expectError(
  t: Test,
  res: { status: number; body: Record<string, unknown> },
  status: number,
  pattern: RegExp,
) {
  t.equal(res.status, status)
  t.same(
    { exceptionClass: res.body.exceptionClass, status: res.body.status },
    { exceptionClass: RESTLI, status },
    'DataHub error body',
  )
  t.match(res.body.message, pattern)
  t.ok(String(res.body.message).length < 2000, 'the message does not echo the input')
}

t.test('write-side limits answer 400 naming the limit, before any work, and store nothing', async (t) => {
  const { app } = await build(t)
  const ingest = (p: Record<string, unknown>) =>
    postJson(app, '/aspects?action=ingestProposal', { proposal: p })
  const nothingStored = async (t: Test, urn = DS) => {
    const res = await app.inject({ url: `/aspects/${enc(urn)}?aspect=datasetKey&version=0` })
    t.ok(
      [400, 404].includes(res.statusCode),
      `nothing was stored (${res.statusCode} ${res.body.slice(0, 200)})`,
    )
  }

  t.test('an aspect nested 10,000 deep: 400 (was a 500 stack overflow)', async (t) => {
    const n = 10_000
    const deep = `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`
    expectError(t, await ingest(proposal({}, `{"description":${deep}}`)), 400, /max aspect nesting depth/)
    expectError(t, await ingest(proposal({}, `{"extra":${deep}}`)), 400, /limit of 64 levels/)
    await nothingStored(t)
  })

  t.test('an array longer than the limit: 400', async (t) => {
    const tags = Array.from({ length: WRITE_LIMITS.maxArrayItems + 1 }, (_, i) => ({
      tag: `urn:li:tag:t${i}`,
    }))
    const res = await ingest(proposal({ aspectName: 'globalTags' }, JSON.stringify({ tags })))
    expectError(t, res, 400, /array of 20001 items; the limit is 20000 \(max array items\)/)
    await nothingStored(t)
  })

  t.test('a URN longer than DataHub accepts (512 URL-encoded bytes): 400', async (t) => {
    const long = `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(600)},PROD)`
    expectError(
      t,
      await ingest(proposal({ entityUrn: long })),
      400,
      /cannot provide an URN longer than 512 bytes \(when URL encoded\)/,
    )
    // 200 characters that each take 9 URL-encoded bytes.
    const wide = `urn:li:dataset:(urn:li:dataPlatform:hive,${'\u20ac'.repeat(200)},PROD)`
    expectError(t, await ingest(proposal({ entityUrn: wide })), 400, /longer than 512 bytes/)
    await nothingStored(t, long)
  })

  t.test('a 1 MB URN: 400 naming the length limit (was stored, then unreadable)', async (t) => {
    const huge = `urn:li:dataset:(urn:li:dataPlatform:hive,${'y'.repeat(1_000_000)},PROD)`
    expectError(t, await ingest(proposal({ entityUrn: huge })), 400, /the limit is 4096 \(max urn length\)/)
  })

  t.test('a URN with a lone UTF-16 surrogate: 400 (was stored and never readable)', async (t) => {
    const lone = `urn:li:dataset:(urn:li:dataPlatform:hive,bad\ud800name,PROD)`
    expectError(t, await ingest(proposal({ entityUrn: lone })), 400, /lone UTF-16 surrogate/)
    const tag = 'urn:li:tag:x\udc00'
    const res = await ingest(proposal({ aspectName: 'globalTags' }, JSON.stringify({ tags: [{ tag }] })))
    t.equal(res.status, 422, 'a lone surrogate in a URN inside an aspect breaks the schema')
    t.match(res.body.message, /lone UTF-16 surrogate/)
    await nothingStored(t)
  })

  t.test('URNs with unbalanced parentheses or edge whitespace: 400', async (t) => {
    expectError(
      t,
      await ingest(proposal({ entityType: 'tag', entityUrn: 'urn:li:tag:a)' })),
      400,
      /unbalanced/,
    )
    expectError(
      t,
      await ingest(proposal({ entityUrn: ` ${DS}` })),
      400,
      /Invalid urn|leading or trailing whitespace/,
    )
  })

  t.test('a batch larger than the limit: 400 naming it', async (t) => {
    const proposals = Array.from({ length: WRITE_LIMITS.maxBatchItems + 1 }, () => proposal())
    const res = await postJson(app, '/aspects?action=ingestProposalBatch', { proposals })
    expectError(t, res, 400, /proposals.*must NOT have more than 10000 items/)
    await nothingStored(t)
  })

  t.test('a well-formed batch at the limit still works', async (t) => {
    const res = await postJson(app, '/aspects?action=ingestProposalBatch', {
      proposals: [proposal(), proposal({ aspectName: 'status' }, '{"removed":false}')],
    })
    t.equal(res.status, 200)
  })
})

t.test('malformed URNs on /relationships and lineage answer 400, not an empty 200', async (t) => {
  const { app } = await build(t)
  const bad = [
    'urn:li:dataset:)',
    'urn:li:dataset:not-a-tuple',
    'urn:li:corpuser:a(b',
    'urn:li:dataset:(urn:li:dataPlatform:hive,x',
    `urn:li:dataset:(urn:li:dataPlatform:hive,a\ud800,PROD)`,
    'nope',
  ]
  for (const urn of bad) {
    const u = enc(urn.replace(/\ud800/, '')) + (urn.includes('\ud800') ? '%ED%A0%80' : '')
    const rel = await getJson(app, `/relationships?urn=${u}&direction=OUTGOING&types=DownstreamOf`)
    t.equal(rel.status, 400, `/relationships ${JSON.stringify(urn)}`)
    t.equal(rel.body.exceptionClass, RESTLI)
    const lin = await postJson(app, '/relationships?action=getLineage', { urn, direction: 'UPSTREAM' })
    t.equal(lin.status, 400, `getLineage ${JSON.stringify(urn)}`)
    const get = await getJson(app, `/lineage?urn=${u}&direction=UPSTREAM`)
    t.equal(get.status, 400, `/lineage ${JSON.stringify(urn)}`)
  }
  const ok = await getJson(
    app,
    `/relationships?urn=${enc('urn:li:unmodelledThing:abc')}&direction=OUTGOING&types=DownstreamOf`,
  )
  t.equal(ok.status, 200, 'a well-formed URN of a type the catalog does not model is still fine')
})
