/**
 * DataHub's deprecated `/usageStats` resource: `queryRange` as DataHub's smoke test calls it
 * (test_e2e.py, on bigquery_usages_golden.json), `batchIngest` with the body the Python emitter
 * sends (`emit_usage`: `{"buckets": [pre_json_transform(UsageAggregation.to_obj())]}`) and `query`.
 */
import { tokenInfoProposal } from '@catalog/auth'
import type { CatalogServer } from '@catalog/http-kit'
import t from 'tap'
import { build, ingestExamples, type Json, postRestli } from '../helpers/build.js'

const BQ =
  'urn:li:dataset:(urn:li:dataPlatform:bigquery,harshal-playground-306419.test_schema.excess_deaths_derived,PROD)'
const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,usage.orders,PROD)'
const DAY = 86_400_000
const T0 = 1_764_028_800_000 // 2025-11-25T00:00:00Z

t.test('queryRange on DataHub smoke-test usage data', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bigqueryUsages')
  const res = await postRestli(app, '/usageStats?action=queryRange', {
    resource: BQ,
    duration: 'DAY',
    rangeFromEnd: 'ALL',
  })
  t.equal(res.status, 200)
  const { buckets, aggregations } = res.body.value
  t.equal(buckets.length, 6, 'one bucket per day from the first to the last, empty days included')
  t.ok(buckets[0].metrics.topSqlQueries, 'the first bucket has top queries')
  t.same(buckets[3], { bucket: 1622073600000 + 3 * DAY, duration: 'DAY', resource: BQ, metrics: {} })
  t.equal(aggregations.fields.length, 12)
  t.equal(aggregations.fields[0].count, 7)
  t.equal(aggregations.users.length, 1)
  t.equal(aggregations.users[0].count, 7)
  const { users: _u, fields: _f, ...rest } = aggregations
  t.same(rest, { totalSqlQueries: 7, uniqueUserCount: 1 })

  const recent = await postRestli(app, '/usageStats?action=queryRange', {
    resource: BQ,
    duration: 'DAY',
    rangeFromEnd: 'MONTH',
  })
  t.same(
    recent.body.value,
    { buckets: [], aggregations: { users: [], uniqueUserCount: 0, fields: [] } },
    'old usage is out of a month range',
  )
})

t.test('batchIngest as the emitter sends it, then query', async (t) => {
  const { app } = await build(t)
  const bucket = (at: number, users: Json[], total: number, fields: Json[]) => ({
    bucket: at,
    duration: 'DAY',
    resource: DS,
    metrics: {
      uniqueUserCount: users.length,
      users,
      totalSqlQueries: total,
      topSqlQueries: [`SELECT * FROM orders -- ${at}`],
      fields,
    },
  })
  const ingest = await postRestli(app, '/usageStats?action=batchIngest', {
    buckets: [
      bucket(
        T0,
        [
          { user: 'urn:li:corpuser:ann', count: 3, userEmail: 'ann@example.com' },
          { user: 'urn:li:corpuser:bob', count: 1 },
        ],
        4,
        [
          { fieldName: 'id', count: 4 },
          { fieldName: 'total', count: 1 },
        ],
      ),
      bucket(T0 + DAY, [{ user: 'urn:li:corpuser:bob', count: 2 }], 2, [{ fieldName: 'id', count: 2 }]),
    ],
  })
  t.equal(ingest.status, 200)
  t.equal(ingest.body, undefined, 'a void action answers an empty body')

  // Stored as DataHub converts it: a datasetUsageStatistics value per bucket.
  const stored = await postRestli(app, '/aspects?action=getTimeseriesAspectValues', {
    urn: DS,
    entity: 'dataset',
    aspect: 'datasetUsageStatistics',
    limit: 10,
  })
  t.same(JSON.parse(stored.body.value.values[1].aspect.value), {
    timestampMillis: T0,
    eventGranularity: { unit: 'DAY', multiple: 1 },
    uniqueUserCount: 2,
    totalSqlQueries: 4,
    topSqlQueries: [`SELECT * FROM orders -- ${T0}`],
    userCounts: [
      { user: 'urn:li:corpuser:ann', count: 3 },
      { user: 'urn:li:corpuser:bob', count: 1 },
    ],
    fieldCounts: [
      { fieldPath: 'id', count: 4 },
      { fieldPath: 'total', count: 1 },
    ],
  })

  const query = await postRestli(app, '/usageStats?action=query', {
    resource: DS,
    duration: 'DAY',
    startTime: T0,
    endTime: T0 + DAY,
  })
  t.equal(query.status, 200)
  t.same(query.body.value.buckets, [
    {
      bucket: T0,
      duration: 'DAY',
      resource: DS,
      metrics: { uniqueUserCount: 2, totalSqlQueries: 4, topSqlQueries: [`SELECT * FROM orders -- ${T0}`] },
    },
    {
      bucket: T0 + DAY,
      duration: 'DAY',
      resource: DS,
      metrics: {
        uniqueUserCount: 1,
        totalSqlQueries: 2,
        topSqlQueries: [`SELECT * FROM orders -- ${T0 + DAY}`],
      },
    },
  ])
  t.same(query.body.value.aggregations, {
    users: [
      { user: 'urn:li:corpuser:bob', count: 3 },
      { user: 'urn:li:corpuser:ann', count: 3 },
    ],
    uniqueUserCount: 2,
    fields: [
      { fieldName: 'id', count: 6 },
      { fieldName: 'total', count: 1 },
    ],
    totalSqlQueries: 6,
  })

  const week = await postRestli(app, '/usageStats?action=query', { resource: DS, duration: 'WEEK' })
  t.equal(week.body.value.buckets.length, 1, 'both days fall in one Monday-based week')
  t.equal(week.body.value.buckets[0].bucket, T0 - DAY, 'the week starts on Monday 2025-11-24')
  t.equal(week.body.value.buckets[0].metrics.totalSqlQueries, 2, 'a bucket holds its latest value')

  const later = await postRestli(app, '/usageStats?action=query', {
    resource: DS,
    duration: 'DAY',
    startTime: T0 + DAY,
  })
  t.equal(later.body.value.buckets.length, 1, 'startTime is inclusive')
})

t.test('bad input changes nothing', async (t) => {
  const { app } = await build(t)
  const count = async () =>
    (
      await postRestli(app, '/aspects?action=getTimeseriesAspectValues', {
        urn: DS,
        entity: 'dataset',
        aspect: 'datasetUsageStatistics',
        limit: 10,
      })
    ).body.value.values.length
  const good = { bucket: T0, duration: 'DAY', resource: DS, metrics: { totalSqlQueries: 1 } }

  const malformed = await postRestli(app, '/usageStats?action=batchIngest', {
    buckets: [good, { ...good, resource: 'urn:li:dataset:bad' }],
  })
  t.equal(malformed.status, 400)
  t.match(malformed.body, { status: 400, message: /Invalid urn 'urn:li:dataset:bad'/ })
  t.equal(await count(), 0, 'a refused batch writes none of its buckets')

  const wrongType = await postRestli(app, '/usageStats?action=batchIngest', {
    buckets: [good, { ...good, resource: 'urn:li:corpuser:ann' }],
  })
  t.ok(wrongType.status === 400 || wrongType.status === 422, `status ${wrongType.status}`)
  t.equal(wrongType.body.status, wrongType.status)
  t.equal(await count(), 0)

  const badDuration = await postRestli(app, '/usageStats?action=query', { resource: DS, duration: 'DECADE' })
  t.equal(badDuration.status, 400)
  t.equal(badDuration.body.status, 400)
  const badRange = await postRestli(app, '/usageStats?action=queryRange', {
    resource: DS,
    duration: 'DAY',
    rangeFromEnd: 'FOREVER',
  })
  t.equal(badRange.status, 400)
  const badResource = await postRestli(app, '/usageStats?action=queryRange', {
    resource: 'not-a-urn',
    duration: 'DAY',
    rangeFromEnd: 'ALL',
  })
  t.equal(badResource.status, 400)
  t.match(badResource.body.message, /Invalid urn 'not-a-urn'/)
  const missing = await postRestli(app, '/usageStats?action=batchIngest', {})
  t.equal(missing.status, 400, 'buckets is required')
})

t.test('batchIngest needs the right to edit each resource', async (t) => {
  const built = await build(t, { auth: true })
  const { app, adminToken, tokens } = built
  const post = async (url: string, token: string | undefined, payload: unknown) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: {
        'x-restli-protocol-version': '2.0.0',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      payload: payload as Record<string, unknown>,
    })
    return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as Json) : undefined }
  }
  const alice = tokens?.issue({
    actorUrn: 'urn:li:corpuser:alice',
    ownerUrn: 'urn:li:corpuser:alice',
    ttlMs: 3_600_000,
    name: 'alice',
  })
  if (!alice) throw new Error('auth is off')
  const stored = await post('/aspects?action=ingestProposalBatch', adminToken, {
    proposals: [tokenInfoProposal(alice.id, alice.info)],
  })
  t.equal(stored.status, 200)
  const body = { buckets: [{ bucket: T0, duration: 'DAY', resource: DS, metrics: { totalSqlQueries: 1 } }] }
  const refused = await post('/usageStats?action=batchIngest', alice.accessToken, body)
  t.same([refused.status, refused.body?.message], [403, 'User is unauthorized to edit entities.'])
  const values = async (a: CatalogServer) =>
    (
      await a.inject({
        method: 'POST',
        url: '/aspects?action=getTimeseriesAspectValues',
        headers: { authorization: `Bearer ${adminToken}` },
        payload: { urn: DS, entity: 'dataset', aspect: 'datasetUsageStatistics', limit: 10 },
      })
    ).json().value.values.length
  t.equal(await values(app), 0, 'nothing written')
  t.equal((await post('/usageStats?action=batchIngest', adminToken, body)).status, 200, 'the admin may')
  t.equal(await values(app), 1)
})
