/**
 * The time-series part of the store contract: filtered reads, counts, batched truncation,
 * index sizes and the durable task table. Run by `runStoreContract` inside its suite.
 */
import type { AuditStamp } from '@catalog/core'
import type { Test } from 'tap'
import type { StoreFactory } from './contract.js'
import type { MetadataStore, Mutation } from './port.js'
import type { TimeseriesQuery } from './timeseries-port.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,contract.series,PROD)'
const DS2 = 'urn:li:dataset:(urn:li:dataPlatform:hive,contract.series2,PROD)'
const created: AuditStamp = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:datahub' }

function row(urn: string, aspect: string, ts: number, extra: Record<string, unknown> = {}): Mutation {
  return {
    kind: 'timeseries',
    row: {
      urn,
      entityType: 'dataset',
      aspect,
      timestampMillis: ts,
      value: { timestampMillis: ts, ...extra },
    },
  }
}

/** Registers the time-series cases; `store()` gives the suite's current store. */
export function runTimeseriesContract(t: Test, store: () => MetadataStore, factory: StoreFactory): void {
  const profiles = (over: Partial<TimeseriesQuery> = {}) =>
    store().timeseries({ urn: DS, entityType: 'dataset', aspect: 'datasetProfile', limit: 100, ...over })
  const seed = () =>
    store().write({
      mutations: [
        row(DS, 'datasetProfile', 100, { rowCount: 5, eventGranularity: { unit: 'DAY' }, tags: ['a', 'b'] }),
        row(DS, 'datasetProfile', 200, { rowCount: 50, eventGranularity: { unit: 'HOUR' }, flag: true }),
        row(DS, 'datasetProfile', 300, { rowCount: 7, eventGranularity: { unit: 'DAY' }, flag: false }),
        row(DS, 'datasetProfile', 400, { rowCount: 3742, label: 'zeta' }),
        row(DS2, 'datasetProfile', 150, { rowCount: 1 }),
        row(DS, 'operation', 100, { operationType: 'INSERT' }),
      ],
      created,
    })

  t.test('time series: a bucket and the absolute value of one time are two values', async (t) => {
    const spec = { partitionSpec: { partition: 'FULL_TABLE_SNAPSHOT', type: 'FULL_TABLE' } }
    const values = (rows: Mutation[]) => store().write({ mutations: rows, created })
    await values([
      row(DS, 'datasetUsageStatistics', 500, { ...spec, totalSqlQueries: 16 }),
      row(DS, 'datasetUsageStatistics', 500, {
        ...spec,
        eventGranularity: { unit: 'WEEK', multiple: 1 },
        totalSqlQueries: 1,
      }),
    ])
    const read = async () =>
      (
        await store().timeseries({
          urn: DS,
          entityType: 'dataset',
          aspect: 'datasetUsageStatistics',
          limit: 10,
        })
      )
        .map((r) => r.value.totalSqlQueries)
        .sort()
    t.same(await read(), [1, 16], 'as DataHub keys them: with their granularity')
    // Written again (same time, partition and granularity): replaced, not added.
    await values([
      row(DS, 'datasetUsageStatistics', 500, {
        ...spec,
        eventGranularity: { multiple: 1, unit: 'WEEK' },
        totalSqlQueries: 2,
      }),
    ])
    t.same(await read(), [16, 2], 'the bucket replaced')
  })

  t.test('time series: filters on value fields, sort by a field', async (t) => {
    await seed()
    const ts = async (over: Partial<TimeseriesQuery>) => (await profiles(over)).map((r) => r.timestampMillis)
    t.same(
      await ts({ filter: [[{ field: 'eventGranularity.unit', condition: 'EQUAL', values: ['DAY'] }]] }),
      [300, 100],
      'EQUAL on a nested field',
    )
    t.same(
      await ts({ filter: [[{ field: 'rowCount', condition: 'GREATER_THAN', values: ['6'] }]] }),
      [400, 300, 200],
      'numeric comparison with a numeric string',
    )
    t.same(
      await ts({ filter: [[{ field: 'rowCount', condition: 'LESS_THAN_OR_EQUAL_TO', values: ['7'] }]] }),
      [300, 100],
    )
    t.same(await ts({ filter: [[{ field: 'rowCount', condition: 'EQUAL', values: ['3742'] }]] }), [400])
    t.same(
      await ts({ filter: [[{ field: 'tags', condition: 'EQUAL', values: ['b'] }]] }),
      [100],
      'array element',
    )
    t.same(
      await ts({ filter: [[{ field: 'flag', condition: 'EQUAL', values: ['false'] }]] }),
      [300],
      'boolean',
    )
    t.same(await ts({ filter: [[{ field: 'label', condition: 'EXISTS', values: [] }]] }), [400])
    t.same(
      await ts({ filter: [[{ field: 'label', condition: 'EXISTS', values: [], negated: true }]] }),
      [300, 200, 100],
      'negated',
    )
    t.same(
      await ts({
        filter: [
          [
            { field: 'eventGranularity.unit', condition: 'EQUAL', values: ['DAY'] },
            { field: 'rowCount', condition: 'GREATER_THAN', values: ['5'] },
          ],
          [{ field: 'label', condition: 'IN', values: ['x', 'zeta'] }],
        ],
      }),
      [400, 300],
      'OR of ANDs',
    )
    t.same(
      await ts({ filter: [[{ field: 'rowCount', condition: 'GREATER_THAN', values: ['1'] }]], limit: 1 }),
      [400],
      'limit applies after the filter',
    )
    t.same(
      await ts({ sort: { field: 'rowCount', order: 'ASCENDING' } }),
      [100, 300, 200, 400],
      'sort by field',
    )
    t.same(
      await ts({
        startTimeMillis: 150,
        endTimeMillis: 350,
        filter: [[{ field: 'flag', condition: 'EXISTS', values: [] }]],
      }),
      [300, 200],
      'range and filter together',
    )
    t.same(
      await ts({ filter: [[{ field: 'a"b', condition: 'EXISTS', values: [] }]] }).catch((e: Error) => e.name),
      'InvalidInputError',
      'a field that is not a plain path is refused',
    )
  })

  t.test('time series of other entity types: chart usage, ingestion checkpoints on a job', async (t) => {
    const CHART = 'urn:li:chart:(looker,contract.1)'
    const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,contract,PROD),load)'
    const on = (
      urn: string,
      entityType: string,
      aspect: string,
      ts: number,
      value: Record<string, unknown>,
    ) =>
      ({
        kind: 'timeseries',
        row: { urn, entityType, aspect, timestampMillis: ts, value: { timestampMillis: ts, ...value } },
      }) as Mutation
    await store().write({
      mutations: [
        on(CHART, 'chart', 'chartUsageStatistics', 1, {
          viewsCount: 3,
          userCounts: [{ user: 'urn:li:corpuser:a', viewsCount: 3 }],
        }),
        on(CHART, 'chart', 'chartUsageStatistics', 2, { viewsCount: 40 }),
        on(JOB, 'dataJob', 'datahubIngestionCheckpoint', 1, { pipelineName: 'etl', runId: 'r1' }),
      ],
      created,
    })
    const views = await store().timeseries({
      urn: CHART,
      entityType: 'chart',
      aspect: 'chartUsageStatistics',
      limit: 10,
      filter: [[{ field: 'userCounts.user', condition: 'EQUAL', values: ['urn:li:corpuser:a'] }]],
    })
    t.same(
      views.map((r) => r.timestampMillis),
      [1],
      'a filter on a @TimeseriesField collection member',
    )
    const checkpoints = await store().timeseries({
      urn: JOB,
      entityType: 'dataJob',
      aspect: 'datahubIngestionCheckpoint',
      limit: 10,
      filter: [[{ field: 'pipelineName', condition: 'EQUAL', values: ['etl'] }]],
    })
    t.same(
      checkpoints.map((r) => r.value.runId),
      ['r1'],
    )
  })

  t.test('time series: counts, batched truncation oldest first, sizes', async (t) => {
    await seed()
    const index = { entityType: 'dataset', aspect: 'datasetProfile' }
    t.same(await store().timeseriesCounts(index, 200), { total: 5, matching: 3 })
    t.same(await store().timeseriesCounts({ entityType: 'dataset', aspect: 'nothing' }, 200), {
      total: 0,
      matching: 0,
    })
    const before = await store().timeseriesSizes()
    t.same(
      before.map((s) => [s.entityType, s.aspect, s.rows]),
      [
        ['dataset', 'datasetProfile', 5],
        ['dataset', 'operation', 1],
      ],
      'only indices with rows, ordered',
    )
    t.equal(await store().truncateTimeseries(index, 200, 2), 2, 'one batch')
    t.same(
      (await profiles()).map((r) => r.timestampMillis),
      [400, 300, 200],
      'the oldest rows went first (100 of DS, 150 of DS2)',
    )
    t.equal(await store().truncateTimeseries(index, 200, 2), 1)
    t.equal(await store().truncateTimeseries(index, 200, 2), 0, 'nothing left to delete')
    t.same(await store().timeseriesCounts(index, 200), { total: 2, matching: 0 })
    const after = await store().timeseriesSizes()
    const size = (list: typeof after, aspect: string) => list.find((s) => s.aspect === aspect)
    t.ok((size(after, 'datasetProfile')?.bytes ?? 0) < (size(before, 'datasetProfile')?.bytes ?? 0), 'shrank')
    t.equal(size(after, 'operation')?.bytes, size(before, 'operation')?.bytes, 'other indices untouched')
    await store().truncateTimeseries(index, 10_000, 100)
    t.same(
      (await store().timeseriesSizes()).map((s) => s.aspect),
      ['operation'],
      'an emptied index is not listed',
    )
  })

  t.test('tasks: durable records with a stable node id', async (t) => {
    const node = await store().taskNodeId()
    t.match(node, /^[a-zA-Z0-9-_]+$/)
    t.equal(await store().taskNodeId(), node, 'stable')
    const a = await store().createTask({
      kind: 'truncate',
      params: { aspect: 'datasetProfile' },
      progress: { deleted: 0 },
      startedAt: 1000,
    })
    const b = await store().createTask({ kind: 'truncate', params: {}, progress: {}, startedAt: 2000 })
    t.equal(a.nodeId, node)
    t.ok(a.taskId > 0 && b.taskId > a.taskId, 'ids are positive and increase')
    t.equal(a.state, 'running')
    t.same(a.params, { aspect: 'datasetProfile' })
    await store().updateTask(node, a.taskId, { progress: { deleted: 5 }, runTimeNanos: 42 })
    let got = await store().task(node, a.taskId)
    t.same([got?.state, got?.progress, got?.runTimeNanos], ['running', { deleted: 5 }, 42])
    await store().updateTask(node, a.taskId, { state: 'completed' })
    got = await store().task(node, a.taskId)
    t.same([got?.state, got?.progress], ['completed', { deleted: 5 }], 'a partial update keeps the rest')
    await store().updateTask(node, b.taskId, { state: 'failed', error: 'boom' })
    t.equal((await store().task(node, b.taskId))?.error, 'boom')
    t.equal(await store().task(node, 999_999), undefined)
    t.equal(await store().task(`${node}x`, a.taskId), undefined, 'another node id finds nothing')
    const c = await store().createTask({ kind: 'truncate', params: {}, progress: {}, startedAt: 3000 })
    t.same(
      (await store().tasksInState('running')).map((x) => x.taskId),
      [c.taskId],
    )

    if (factory.reopen) {
      await store().close()
      const reopened = await factory.reopen()
      t.teardown(() => reopened.close())
      t.equal(await reopened.taskNodeId(), node, 'the node id survives a reopen')
      const again = await reopened.task(node, a.taskId)
      t.same([again?.state, again?.progress], ['completed', { deleted: 5 }], 'tasks survive a reopen')
      const d = await reopened.createTask({ kind: 'truncate', params: {}, progress: {}, startedAt: 4000 })
      t.ok(d.taskId > c.taskId, 'ids keep increasing after a reopen')
    }
  })
}
