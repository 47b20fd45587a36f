import t from 'tap'
import { CHANGE_LOG_COUNTER } from './cypher-aspects.js'
import { TASK_COUNTER } from './cypher-tasks.js'
import { toStoredTask } from './tasks.js'

const node = {
  nodeId: 'n0de-Id_1',
  taskId: 3,
  kind: 'truncate',
  params: '{"aspect":"datasetProfile"}',
  state: 'running' as const,
  startedAt: 1000,
  updatedAt: 2000,
  runTimeNanos: 42,
  progress: '{"deleted":5}',
}

t.test('task nodes become stored tasks', async (t) => {
  t.same(toStoredTask(node), {
    ...node,
    params: { aspect: 'datasetProfile' },
    progress: { deleted: 5 },
  })
  t.notOk('error' in toStoredTask({ ...node, error: null }), 'no error property without an error')
  t.equal(toStoredTask({ ...node, state: 'failed', error: 'boom' }).error, 'boom')
})

t.test('tasks are numbered by their own counter, not the change log', async (t) => {
  t.not(TASK_COUNTER, CHANGE_LOG_COUNTER)
})
