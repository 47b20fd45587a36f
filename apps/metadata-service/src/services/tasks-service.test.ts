import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqliteMetadataStore } from '@catalog/store-sqlite'
import t, { type Test } from 'tap'
import { RESTORE_TASK, TaskRunner, TRUNCATE_TASK } from './tasks-service.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,tasks.unit,PROD)'

async function open(t: Test) {
  const dir = mkdtempSync(join(tmpdir(), 'tasks-'))
  const store = new SqliteMetadataStore({ file: join(dir, 'metadata.db'), durability: 'normal' })
  t.teardown(async () => {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  })
  await store.write({
    mutations: Array.from({ length: 20 }, (_, i) => ({
      kind: 'timeseries' as const,
      row: {
        urn: DS,
        entityType: 'dataset',
        aspect: 'datasetProfile',
        timestampMillis: i,
        value: { timestampMillis: i },
      },
    })),
    created: { time: 1, actor: 'urn:li:corpuser:datahub' },
  })
  return store
}

async function settle(runner: TaskRunner, node: string, id: number) {
  for (let i = 0; i < 500; i++) {
    const s = await runner.status(node, id)
    if (s?.completed) return s
    await new Promise((r) => setTimeout(r, 5))
  }
  return runner.status(node, id)
}

t.test('a task past its timeout stops, completed and marked timed out, deleting nothing more', async (t) => {
  const store = await open(t)
  const task = await store.createTask({
    kind: TRUNCATE_TASK,
    params: {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: 100,
      batchSize: 5,
      timeoutSeconds: 1,
      mode: 'reindex',
    },
    progress: { total: 20, deleted: 0, batches: 0 },
    startedAt: Date.now() - 5_000,
  })
  const runner = new TaskRunner(store)
  await runner.resume()
  const status = await settle(runner, task.nodeId, task.taskId)
  t.equal(status?.completed, true)
  t.equal(status?.timedOut, true)
  t.match(status?.failure, /timed out after 1 seconds/)
  t.equal(status?.status.deleted, 0)
  t.same((await store.timeseriesCounts({ entityType: 'dataset', aspect: 'datasetProfile' }, 100)).total, 20)
  await runner.stop()
})

t.test('a running task is resumed from its stored progress and its counters add up', async (t) => {
  const store = await open(t)
  await store.truncateTimeseries({ entityType: 'dataset', aspect: 'datasetProfile' }, 100, 8)
  const task = await store.createTask({
    kind: TRUNCATE_TASK,
    params: {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: 100,
      batchSize: 5,
      mode: 'reindex',
    },
    progress: { total: 20, deleted: 8, batches: 1 },
    startedAt: Date.now(),
  })
  const runner = new TaskRunner(store)
  await runner.resume()
  const status = await settle(runner, task.nodeId, task.taskId)
  t.same(
    [status?.completed, status?.status.total, status?.status.deleted, status?.status.batches],
    [true, 20, 20, 4],
  )
  t.equal((await store.task(task.nodeId, task.taskId))?.state, 'completed')
  t.equal(await runner.status(task.nodeId, task.taskId + 100), undefined, 'unknown task')
})

t.test(
  'a tracked restore reports live progress, persists it, and a stopped one is failed at the next start',
  async (t) => {
    const store = await open(t)
    const runner = new TaskRunner(store)
    const task = await runner.track(RESTORE_TASK, { batchSize: 10 })
    const [node, id] = task.id.split(':') as [string, string]
    await task.progress({ rowsMigrated: 10, ignored: 1, batches: 1, lastUrn: DS })
    await task.progress({ rowsMigrated: 20, ignored: 1, batches: 2, lastUrn: DS })
    const live = await runner.status(node, Number(id))
    t.match(live, {
      completed: false,
      taskId: task.id,
      status: { total: 21, updated: 20, noops: 1, batches: 2 },
    })
    t.match(
      (await store.task(node, Number(id)))?.progress,
      { rowsMigrated: 0 },
      'the store is written at most once a second; the live counters come from memory',
    )
    await task.finish()
    t.match(
      (await store.task(node, Number(id)))?.progress,
      { rowsMigrated: 20 },
      'persisted when it finishes',
    )
    t.match(await runner.status(node, Number(id)), { completed: true, status: { updated: 20 } })

    const failed = await runner.track(RESTORE_TASK, {})
    await failed.finish(new Error('boom'))
    const [fNode, fId] = failed.id.split(':') as [string, string]
    t.match(await runner.status(fNode, Number(fId)), { completed: true, failure: 'boom' })

    // A process that stops mid-restore leaves the task running: the next start fails it.
    const orphan = await runner.track(RESTORE_TASK, {})
    await orphan.progress({ rowsMigrated: 5, ignored: 0, batches: 1, lastUrn: DS })
    const [oNode, oId] = orphan.id.split(':') as [string, string]
    const next = new TaskRunner(store)
    await next.resume()
    const status = await next.status(oNode, Number(oId))
    t.equal(status?.completed, true)
    t.match(status?.failure, /^interrupted: the process stopped while restoreIndices ran/)
    await next.stop()
  },
)
