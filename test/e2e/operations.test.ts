import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CatalogServer } from '@catalog/http-kit'
import t, { type Test } from 'tap'
import { build, ingestExamples, type Json, postJson } from '../helpers/build.js'
import { loadExample, preJsonTransform } from '../helpers/examples.js'

const PROFILED = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)'
const TASK_ID = /^[a-zA-Z0-9-_]+:[1-9][0-9]*$/
const DRY_TAIL = 'This was a dry run. Run with dryRun = false to execute.'

const op = (app: CatalogServer, action: string, body: unknown, prefix = '') =>
  postJson(app, `${prefix}/operations?action=${action}`, body)

/** The profile timestamps of demo-profiles.json, newest first. */
const profileTimes = (): number[] =>
  loadExample('demoProfiles')
    .map((raw) => JSON.parse((preJsonTransform(raw) as Json).aspect.value).timestampMillis as number)
    .sort((a, b) => b - a)

async function values(app: CatalogServer, urn = PROFILED, aspect = 'datasetProfile'): Promise<number[]> {
  const { body } = await postJson(app, '/aspects?action=getTimeseriesAspectValues', {
    urn,
    entity: 'dataset',
    aspect,
    limit: 10000,
  })
  return body.value.values.map((v: Json) => JSON.parse(v.aspect.value).timestampMillis)
}

async function sizes(app: CatalogServer): Promise<Json[]> {
  const { status, body } = await op(app, 'getIndexSizes', {})
  if (status !== 200) throw new Error(`getIndexSizes: ${status}`)
  return JSON.parse(body.value).indexSizes
}

async function waitForTask(app: CatalogServer, task: string, timeoutMs = 20_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { body } = await op(app, 'getEsTaskStatus', { task })
    const status = JSON.parse(body.value)
    if (status.completed || Date.now() > deadline) return status
    await new Promise((r) => setTimeout(r, 20))
  }
}

const expectError = (
  t: Test,
  res: { status: number; body: Json },
  status: number,
  message: string | RegExp,
) => {
  t.equal(res.status, status, `HTTP ${status}`)
  t.equal(res.body?.status, status)
  t.equal(res.body?.exceptionClass, 'com.linkedin.restli.server.RestLiServiceException')
  if (typeof message === 'string') t.equal(res.body?.message, message)
  else t.match(res.body?.message, message)
}

/** `n` synthetic daily profiles of one dataset, in one ingestProposalBatch call. */
async function ingestProfiles(app: CatalogServer, urn: string, n: number, from = 1_600_000_000_000) {
  const proposals = Array.from({ length: n }, (_, i) => ({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName: 'datasetProfile',
    aspect: {
      value: JSON.stringify({ timestampMillis: from + i * 86_400_000, rowCount: i, columnCount: 3 }),
      contentType: 'application/json',
    },
  }))
  const res = await postJson(app, '/aspects?action=ingestProposalBatch', { proposals })
  if (res.status !== 200) throw new Error(`ingest: ${res.status} ${JSON.stringify(res.body)}`)
}

t.test('truncateTimeseriesAspect, getEsTaskStatus and getIndexSizes', async (t) => {
  const { app } = await build(t)
  await ingestExamples(app, 'bigqueryUsages', 'demoProfiles')
  const times = profileTimes()
  t.same(await values(app), times, '14 profiles to start with')

  t.test('a dry run reports DataHub’s exact summary and deletes nothing', async (t) => {
    const fifth = times[times.length - 5] as number
    let res = await op(app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: fifth,
    })
    t.equal(res.status, 200)
    t.equal(
      res.body.value,
      `Delete 5 out of 14 rows (35.71%). Issuing a delete by query request. ${DRY_TAIL}`,
      '5 <= 14/2: delete by query',
    )
    res = await op(app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetprofile',
      endTimeMillis: times[2],
      dryRun: true,
    })
    t.equal(
      res.body.value,
      `Delete 12 out of 14 rows (85.71%). Reindexing the aspect without the deleted records. ${DRY_TAIL}`,
      'more than half: reindex; the lower-case index aspect name is accepted',
    )
    res = await op(app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: times[2],
      forceDeleteByQuery: true,
    })
    t.equal(
      res.body.value,
      `Delete 12 out of 14 rows (85.71%). Issuing a delete by query request. ${DRY_TAIL}`,
    )
    res = await op(app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: 0,
      forceReindex: true,
    })
    t.equal(
      res.body.value,
      `Delete 0 out of 14 rows (0.00%). Reindexing the aspect without the deleted records. ${DRY_TAIL}`,
    )
    res = await op(app, 'truncateTimeseriesAspect', {
      entityType: 'assertion',
      aspect: 'assertionRunEvent',
      endTimeMillis: 5,
    })
    t.equal(res.body.value, `Delete 0 out of 0 rows (NaN%). Issuing a delete by query request. ${DRY_TAIL}`)
    for (const flags of [
      { forceDeleteByQuery: true, forceReindex: true },
      { forceDeleteByQuery: false, forceReindex: false },
    ]) {
      res = await op(app, 'truncateTimeseriesAspect', {
        entityType: 'dataset',
        aspect: 'datasetProfile',
        endTimeMillis: times[0],
        dryRun: false,
        ...flags,
      })
      t.same([res.status, res.body.value], [200, 'please only set forceReindex OR forceDeleteByQuery flags'])
    }
    t.same(await values(app), times, 'nothing was deleted')
  })

  t.test('getIndexSizes: one entry per time-series index, names usable with truncate', async (t) => {
    const list = await sizes(app)
    t.same(
      list.map((s: Json) => s.indexName).sort(),
      [
        'assertion_assertionruneventaspect_v1',
        'chart_chartusagestatisticsaspect_v1',
        'dashboard_dashboardusagestatisticsaspect_v1',
        'datajob_datahubingestioncheckpointaspect_v1',
        'datajob_datahubingestionrunsummaryaspect_v1',
        'dataprocessinstance_dataprocessinstanceruneventaspect_v1',
        'dataset_datasetprofileaspect_v1',
        'dataset_datasetusagestatisticsaspect_v1',
        'dataset_operationaspect_v1',
        'document_documentusagestatisticsaspect_v1',
        'query_queryusagestatisticsaspect_v1',
      ],
      "one per time-series aspect of DataHub's model",
    )
    const profile = list.find((s: Json) => s.indexName === 'dataset_datasetprofileaspect_v1')
    t.same([profile.entityName, profile.aspectName, profile.rowCount], ['dataset', 'datasetProfile', 14])
    t.ok(profile.sizeMb > 0 && profile.sizeMb === profile.sizeInMb, 'sizeMb and sizeInMb, in MB')
    for (const s of list) {
      const res = await op(app, 'truncateTimeseriesAspect', {
        entityType: s.entityName,
        aspect: s.aspectName,
        endTimeMillis: 0,
      })
      t.match(res.body.value, /^Delete 0 out of \d+ rows/, `${s.indexName}: truncate accepts its names`)
    }
    const empty = list.find((s: Json) => s.indexName === 'assertion_assertionruneventaspect_v1')
    t.same([empty.sizeMb, empty.rowCount], [0, 0], 'an empty index is listed with size 0')
  })

  t.test('a real truncate runs as a task; its counters add up; sizes shrink', async (t) => {
    const before = (await sizes(app)).find((s: Json) => s.aspectName === 'datasetProfile')
    const usageBefore = (await sizes(app)).find((s: Json) => s.aspectName === 'datasetUsageStatistics')
    const fifth = times[times.length - 5] as number
    const res = await op(app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: fifth,
      dryRun: false,
      batchSize: 2,
    })
    t.equal(res.status, 200)
    const task = res.body.value as string
    t.match(task, TASK_ID, `task id ${task}`)
    const status = await waitForTask(app, task)
    t.equal(status.completed, true)
    t.equal(status.taskId, task)
    t.ok(status.runTimeNanos > 0, 'runTimeNanos')
    t.same(
      status.status,
      {
        total: 5,
        updated: 0,
        created: 0,
        deleted: 5,
        batches: 3,
        version_conflicts: 0,
        noops: 0,
        retries: { bulk: 0, search: 0 },
        throttled_millis: 0,
        requests_per_second: -1,
        throttled_until_millis: 0,
      },
      '5 rows deleted in 3 batches of at most 2',
    )
    t.same(await values(app), times.slice(0, 9), 'the 5 oldest are gone, the rest stay')
    const [node, id] = task.split(':') as [string, string]
    const byParts = await op(app, 'getEsTaskStatus', { nodeId: node, taskId: Number(id) })
    t.same(JSON.parse(byParts.body.value), status, 'nodeId + taskId give the same status')
    const same = await op(app, 'getEsTaskStatus', { task, nodeId: node, taskId: Number(id) })
    t.equal(same.status, 200, 'task and the same nodeId + taskId together are fine')
    const after = (await sizes(app)).find((s: Json) => s.aspectName === 'datasetProfile')
    t.ok(after.sizeInMb < before.sizeInMb, `size shrank: ${before.sizeInMb} -> ${after.sizeInMb} MB`)
    t.equal(after.rowCount, 9)
    const usageAfter = (await sizes(app)).find((s: Json) => s.aspectName === 'datasetUsageStatistics')
    t.equal(usageAfter.sizeInMb, usageBefore.sizeInMb, 'other indices untouched')
  })

  t.test('the /gms and /api/gms prefixes answer too', async (t) => {
    for (const prefix of ['/gms', '/api/gms']) {
      const res = await op(app, 'getIndexSizes', undefined, prefix)
      t.equal(res.status, 200, `${prefix}/operations`)
      t.equal(JSON.parse(res.body.value).indexSizes.length, 11)
    }
    const noBody = await app.inject({
      method: 'POST',
      url: '/operations?action=getIndexSizes',
      headers: { 'content-type': 'application/json' },
    })
    t.equal(noBody.statusCode, 200, 'an empty JSON body is accepted for an action without parameters')
  })

  t.test('getEsTaskStatus: unknown tasks and malformed ids get DataHub’s exact strings', async (t) => {
    const real = (
      await op(app, 'truncateTimeseriesAspect', {
        entityType: 'dataset',
        aspect: 'operation',
        endTimeMillis: 1,
        dryRun: false,
      })
    ).body.value as string
    const node = real.split(':')[0] as string
    let res = await op(app, 'getEsTaskStatus', { task: `${node}:999999` })
    t.equal(res.status, 200)
    t.equal(res.body.value, `{"error":"Could not get task status for ${node}:999999"}`)
    res = await op(app, 'getEsTaskStatus', { task: 'XIAMx5WySACgg9XxBgaKmw:12587' })
    t.equal(res.body.value, '{"error":"Could not get task status for XIAMx5WySACgg9XxBgaKmw:12587"}')
    res = await op(app, 'getEsTaskStatus', { nodeId: 'other-node', taskId: 1 })
    t.equal(res.body.value, '{"error":"Could not get task status for other-node:1"}')
    const either = 'Please specify either Node ID + task ID OR composite task parameters'
    expectError(t, await op(app, 'getEsTaskStatus', {}), 400, either)
    expectError(t, await op(app, 'getEsTaskStatus', { nodeId: node }), 400, either)
    expectError(t, await op(app, 'getEsTaskStatus', { nodeId: node, taskId: 0 }), 400, either)
    expectError(
      t,
      await op(app, 'getEsTaskStatus', { task: `${node}:1`, nodeId: node, taskId: 2 }),
      400,
      'Please specify only one of Node ID + task ID OR composite task parameters',
    )
    for (const bad of ['abc', 'a:0', 'a b:1', ':5', 'node:-1', 'node:1:2']) {
      expectError(
        t,
        await op(app, 'getEsTaskStatus', { task: bad }),
        400,
        `Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got ${bad})`,
      )
    }
    await waitForTask(app, real)
  })

  t.test('truncate bad input: clear 400/422, nothing deleted', async (t) => {
    const base = { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: Date.now(), dryRun: false }
    expectError(
      t,
      await op(app, 'truncateTimeseriesAspect', { ...base, entityType: 'spaceship' }),
      422,
      /spaceship/,
    )
    expectError(
      t,
      await op(app, 'truncateTimeseriesAspect', { ...base, aspect: 'warpDrive' }),
      422,
      /warpDrive/,
    )
    expectError(
      t,
      await op(app, 'truncateTimeseriesAspect', { ...base, aspect: 'ownership' }),
      400,
      /not a time-series aspect/,
    )
    expectError(t, await op(app, 'truncateTimeseriesAspect', { ...base, endTimeMillis: -1 }), 400, /negative/)
    expectError(t, await op(app, 'truncateTimeseriesAspect', { ...base, batchSize: 0 }), 400, /batchSize/)
    expectError(
      t,
      await op(app, 'truncateTimeseriesAspect', { ...base, timeoutSeconds: 0 }),
      400,
      /timeoutSeconds/,
    )
    const { endTimeMillis: _, ...noEnd } = base
    expectError(
      t,
      await op(app, 'truncateTimeseriesAspect', noEnd),
      400,
      /Parameter 'endTimeMillis' is required/,
    )
    t.equal((await values(app)).length, 9, 'nothing was deleted')
  })
})

t.test('the server keeps answering while a truncation runs', async (t) => {
  const { app } = await build(t)
  const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,busy.profiles,PROD)'
  const N = 1500
  await ingestProfiles(app, URN, N)
  const task = (
    await op(app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: Date.now(),
      dryRun: false,
      batchSize: 1,
    })
  ).body.value as string
  for (let i = 0; i < 5; i++) {
    const read = await postJson(app, '/aspects?action=getTimeseriesAspectValues', {
      urn: URN,
      entity: 'dataset',
      aspect: 'datasetProfile',
      limit: 1,
    })
    t.equal(read.status, 200)
    t.equal(read.body.value.values.length, 1)
  }
  const midway = JSON.parse((await op(app, 'getEsTaskStatus', { task })).body.value)
  t.equal(
    midway.completed,
    false,
    `reads were answered while the task ran (${midway.status.deleted} of ${N} deleted)`,
  )
  t.ok(midway.status.deleted > 0 && midway.status.deleted < N)
  const done = await waitForTask(app, task, 60_000)
  t.same([done.completed, done.status.deleted, done.status.batches], [true, N, N])
})

t.test('tasks survive a restart', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-ops-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,many.profiles,PROD)'

  const first = await build(t, { dir })
  await ingestExamples(first.app, 'demoProfiles')
  const done = (
    await op(first.app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: Date.now(),
      dryRun: false,
      forceDeleteByQuery: true,
    })
  ).body.value as string
  const finished = await waitForTask(first.app, done)
  t.equal(finished.status.deleted, 14)

  const N = 400
  await ingestProfiles(first.app, URN, N)
  const running = (
    await op(first.app, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: Date.now(),
      dryRun: false,
      batchSize: 1,
    })
  ).body.value as string
  t.match(running, TASK_ID)
  // The process goes away while the task runs (its loop stops after the current batch).
  await first.app.close()
  const [node, id] = running.split(':') as [string, string]
  const stopped = await first.store.task(node, Number(id))
  t.equal(stopped?.state, 'running', 'the task was still running when the process stopped')
  const partial = stopped?.progress as Json
  t.ok(partial.deleted < N, `progress was kept: ${partial.deleted} of ${partial.total}`)
  await first.store.close()

  const second = await build(t, { dir })
  const again = await op(second.app, 'getEsTaskStatus', { task: done })
  t.same(JSON.parse(again.body.value), finished, 'a completed task reads the same after the restart')
  const resumed = await waitForTask(second.app, running, 60_000)
  t.equal(resumed.completed, true, 'the interrupted task was resumed and completed')
  t.same([resumed.status.total, resumed.status.deleted], [N, N], 'its counters add up across the restart')
  t.same(await values(second.app, URN), [], 'every row went')
})
