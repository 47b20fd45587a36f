import { canonicalJson } from '@catalog/core'
import t, { type Test } from 'tap'
import { build, ingestExamples, type Json, postJson } from '../helpers/build.js'
import { type ExampleName, loadExample, preJsonTransform } from '../helpers/examples.js'

const URL = '/aspects?action=getTimeseriesAspectValues'

/**
 * The time-series rows the example files leave, per `urn|aspect`, newest first. Rows with the
 * same timestamp, partition and message id replace each other (DataHub's document id), so
 * the expectation applies the same rule to the files.
 */
function expectedSeries(...names: ExampleName[]): Map<string, Json[]> {
  const byKey = new Map<string, Map<string, Json>>()
  for (const name of names) {
    for (const raw of loadExample(name)) {
      const r = preJsonTransform(raw) as Json
      if (!r.aspectName || r.proposedSnapshot) continue
      if (!['datasetProfile', 'datasetUsageStatistics', 'operation'].includes(r.aspectName)) continue
      const value = r.aspect.json ?? JSON.parse(r.aspect.value)
      const key = `${r.entityUrn}|${r.aspectName}`
      const rows = byKey.get(key) ?? new Map<string, Json>()
      const id = `${value.timestampMillis}|${value.partitionSpec ? canonicalJson(value.partitionSpec) : ''}|${value.messageId ?? ''}`
      rows.set(id, { value, systemMetadata: r.systemMetadata })
      byKey.set(key, rows)
    }
  }
  const out = new Map<string, Json[]>()
  for (const [key, rows] of byKey) {
    out.set(
      key,
      [...rows.values()].sort((a, b) => b.value.timestampMillis - a.value.timestampMillis),
    )
  }
  return out
}

const expectError = (t: Test, res: { status: number; body: Json }, status: number, pattern: RegExp) => {
  t.equal(res.status, status, `HTTP ${status}`)
  t.equal(res.body?.status, status)
  t.equal(res.body?.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException')
  t.match(res.body?.message, pattern)
}

t.test('getTimeseriesAspectValues over the DataHub example files', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bigqueryUsages', 'demoProfiles')
  const expected = expectedSeries('bigqueryUsages', 'demoProfiles')
  t.ok(expected.size >= 8, `${expected.size} (urn, aspect) series in the files`)
  const get = (body: Record<string, unknown>) => postJson(app, URL, body)
  const split = (key: string) => {
    const [urn, aspect] = key.split('|') as [string, string]
    return { urn, entity: 'dataset', aspect }
  }

  t.test('every series comes back whole, newest first, with the default limit echoed', async (t) => {
    for (const [key, rows] of expected) {
      const { status, body } = await get(split(key))
      t.equal(status, 200, key)
      t.equal(body.value.limit, 10000, 'the spec default limit is echoed')
      t.equal(body.value.entityName, 'dataset')
      t.equal(body.value.aspectName, split(key).aspect)
      t.notOk('startTimeMillis' in body.value, 'no range given, none echoed')
      const got = body.value.values.map((v: Json) => JSON.parse(v.aspect.value).timestampMillis)
      t.same(
        got,
        rows.map((r) => r.value.timestampMillis),
        `${key}: ${rows.length} values newest first`,
      )
      for (const v of body.value.values) t.equal(v.aspect.contentType, 'application/json')
    }
  })

  const PROFILED = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
  const profiles = expected.get(`${PROFILED}|datasetProfile`) as Json[]

  t.test('inclusive ranges give the right counts', async (t) => {
    t.equal(profiles.length, 14)
    const times = profiles.map((r) => r.value.timestampMillis as number)
    const cases: Array<[number, number]> = [
      [times[9] as number, times[3] as number],
      [times[13] as number, times[13] as number],
      [0, (times[13] as number) - 1],
      [(times[0] as number) + 1, (times[0] as number) + 10],
      [0, Date.now()],
    ]
    for (const [start, end] of cases) {
      const want = times.filter((ts) => ts >= start && ts <= end)
      const { status, body } = await get({
        urn: PROFILED,
        entity: 'dataset',
        aspect: 'datasetProfile',
        startTimeMillis: start,
        endTimeMillis: end,
        limit: 100,
      })
      t.equal(status, 200)
      t.equal(body.value.startTimeMillis, start, 'range echoed')
      t.equal(body.value.endTimeMillis, end)
      t.equal(body.value.limit, 100)
      t.same(
        body.value.values.map((v: Json) => JSON.parse(v.aspect.value).timestampMillis),
        want,
        `[${start}, ${end}]: ${want.length} values`,
      )
    }
    const limited = await get({ urn: PROFILED, entity: 'dataset', aspect: 'datasetProfile', limit: 3 })
    t.same(
      limited.body.value.values.map((v: Json) => JSON.parse(v.aspect.value).timestampMillis),
      times.slice(0, 3),
      'a limit keeps the newest',
    )
  })

  t.test('values are the ingested records; system metadata comes along', async (t) => {
    const { body } = await get({ urn: PROFILED, entity: 'dataset', aspect: 'datasetProfile', limit: 1 })
    const value = JSON.parse(body.value.values[0].aspect.value)
    const newest = profiles[0]?.value
    t.equal(value.rowCount, newest.rowCount)
    t.equal(value.columnCount, newest.columnCount)
    t.same(
      value.fieldProfiles.map((f: Json) => f.fieldPath),
      newest.fieldProfiles.map((f: Json) => f.fieldPath),
    )
    const [key, rows] = [...expected].find(([k]) => k.endsWith('|datasetUsageStatistics')) as [string, Json[]]
    const usage = await get(split(key))
    t.equal(usage.body.value.values[0].systemMetadata.runId, rows[0].systemMetadata.runId)
    t.equal(
      JSON.parse(usage.body.value.values[0].aspect.value).totalSqlQueries,
      rows[0].value.totalSqlQueries,
    )
  })

  t.test('latestValue gives only the newest value, limit 1', async (t) => {
    const { status, body } = await get({
      urn: PROFILED,
      entity: 'dataset',
      aspect: 'datasetProfile',
      latestValue: true,
    })
    t.equal(status, 200)
    t.equal(body.value.limit, 1)
    t.equal(body.value.values.length, 1)
    t.equal(JSON.parse(body.value.values[0].aspect.value).timestampMillis, profiles[0]?.value.timestampMillis)
  })

  t.test('filters on value fields, and sort', async (t) => {
    const usageKey = [...expected.keys()].find(
      (k) => k.endsWith('|datasetUsageStatistics') && (expected.get(k)?.length ?? 0) >= 3,
    ) as string
    const rows = expected.get(usageKey) as Json[]
    const threshold = 1
    const want = rows
      .filter((r) => (r.value.totalSqlQueries ?? -1) > threshold)
      .map((r) => r.value.timestampMillis)
    const { body } = await get({
      ...split(usageKey),
      filter: {
        or: [{ and: [{ field: 'totalSqlQueries', condition: 'GREATER_THAN', values: [String(threshold)] }] }],
      },
    })
    t.same(
      body.value.values.map((v: Json) => JSON.parse(v.aspect.value).timestampMillis),
      want,
      `${want.length} of ${rows.length} values above ${threshold} queries`,
    )
    const day = await get({
      ...split(usageKey),
      filter: { criteria: [{ field: 'eventGranularity.unit', value: 'DAY' }] },
    })
    t.equal(day.body.value.values.length, rows.filter((r) => r.value.eventGranularity?.unit === 'DAY').length)
    const none = await get({
      ...split(usageKey),
      filter: { criteria: [{ field: 'eventGranularity.unit', values: ['HOUR'] }] },
    })
    t.same(none.body.value.values, [])
    const ascending = await get({
      urn: PROFILED,
      entity: 'dataset',
      aspect: 'datasetProfile',
      sort: { field: 'timestampMillis', order: 'ASCENDING' },
      limit: 2,
    })
    t.same(
      ascending.body.value.values.map((v: Json) => JSON.parse(v.aspect.value).timestampMillis),
      profiles
        .slice(-2)
        .map((r) => r.value.timestampMillis)
        .reverse(),
      'sort ascending gives the oldest',
    )
  })

  t.test('bad input: clear 400/422 with the DataHub error body', async (t) => {
    const base = { urn: PROFILED, entity: 'dataset', aspect: 'datasetProfile' }
    expectError(t, await get({ ...base, entity: 'spaceship' }), 422, /spaceship/)
    expectError(
      t,
      await get({ ...base, aspect: 'warpDrive' }),
      422,
      /Unknown aspect warpDrive for entity dataset/,
    )
    expectError(t, await get({ ...base, aspect: 'datasetProperties' }), 400, /not a time-series aspect/)
    expectError(t, await get({ ...base, startTimeMillis: -1 }), 400, /startTimeMillis must not be negative/)
    expectError(t, await get({ ...base, endTimeMillis: -5 }), 400, /endTimeMillis must not be negative/)
    expectError(t, await get({ ...base, startTimeMillis: 10, endTimeMillis: 5 }), 400, /after endTimeMillis/)
    expectError(t, await get({ ...base, limit: 0 }), 400, /limit must be between 1 and 10000/)
    expectError(t, await get({ ...base, limit: 10001 }), 400, /limit must be between 1 and 10000/)
    expectError(t, await get({ ...base, urn: 'urn:li:corpuser:jdoe' }), 400, /is not a dataset urn/)
    expectError(t, await get({ ...base, urn: 'not-a-urn' }), 400, /Invalid urn/)
    expectError(
      t,
      await get({ entity: 'dataset', aspect: 'datasetProfile' }),
      400,
      /Parameter 'urn' is required/,
    )
    expectError(
      t,
      await get({ ...base, filter: { criteria: [{ field: 'rowCount', condition: 'LIKE', value: 'x' }] } }),
      400,
      /Unsupported filter condition LIKE/,
    )
    expectError(
      t,
      await get({ ...base, filter: { criteria: [{ field: 'a"]', value: 'x' }] } }),
      400,
      /Invalid time-series field/,
    )
    const after = await get({ ...base, limit: 100 })
    t.equal(after.body.value.values.length, 14, 'bad requests changed nothing')
  })

  t.test('an entity without values gives an empty list', async (t) => {
    const { status, body } = await get({
      urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,nothing.here,PROD)',
      entity: 'dataset',
      aspect: 'operation',
    })
    t.equal(status, 200)
    t.same(body.value.values, [])
  })
})

t.test(
  "the time-series aspects of DataHub's whole model, filtered on their @TimeseriesField fields",
  async (t) => {
    const { app } = await build(t)
    const CHART = 'urn:li:chart:(looker,dashboard_elements.1)'
    const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load)'
    const propose = (entityType: string, entityUrn: string, aspectName: string, value: Json) =>
      postJson(app, '/aspects?action=ingestProposal', {
        proposal: {
          entityType,
          entityUrn,
          changeType: 'UPSERT',
          aspectName,
          aspect: { value: JSON.stringify(value), contentType: 'application/json' },
        },
      })
    for (const [i, views] of [3, 12, 40].entries()) {
      const res = await propose('chart', CHART, 'chartUsageStatistics', {
        timestampMillis: 1_700_000_000_000 + i * 86_400_000,
        eventGranularity: { unit: 'DAY', multiple: 1 },
        viewsCount: views,
        userCounts: [{ user: 'urn:li:corpuser:jdoe', viewsCount: views }],
      })
      t.equal(res.status, 200, `chartUsageStatistics ${i}`)
    }
    const checkpoint = await propose('dataJob', JOB, 'datahubIngestionCheckpoint', {
      timestampMillis: 1_700_000_000_000,
      pipelineName: 'etl',
      platformInstanceId: 'prod',
      config: '{}',
      state: { formatVersion: '1.0', serde: 'base85-bz2-json' },
      runId: 'run-1',
    })
    t.equal(checkpoint.status, 200, 'a stateful-ingestion checkpoint on a dataJob')

    const get = (body: Json) => postJson(app, URL, body)
    const views = await get({
      urn: CHART,
      entity: 'chart',
      aspect: 'chartUsageStatistics',
      filter: { criteria: [{ field: 'viewsCount', condition: 'GREATER_THAN', value: '10' }] },
    })
    t.equal(views.status, 200)
    t.same(
      views.body.value.values.map((v: Json) => JSON.parse(v.aspect.value).viewsCount),
      [40, 12],
      'filtered on viewsCount, newest first',
    )
    const byPipeline = await get({
      urn: JOB,
      entity: 'dataJob',
      aspect: 'datahubIngestionCheckpoint',
      filter: { criteria: [{ field: 'pipelineName', value: 'etl' }] },
    })
    t.equal(byPipeline.body.value.values.length, 1, 'filtered on pipelineName')
  },
)
