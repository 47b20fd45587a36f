/**
 * Cypher for durable task records: `(:Task {nodeId, taskId, kind, params, state, startedAt,
 * updatedAt, runTimeNanos, progress, error})`, unique by (nodeId, taskId), `params` and
 * `progress` JSON. Ids come from the `(:Counter {name: $counter})` node of tasks, which also
 * holds the store's node id: created once with the database, so the id is stable across
 * restarts and shared by every process serving the same database.
 */
import { cypher } from './statement.js'

/** Name of the counter node that numbers tasks and holds the node id. */
export const TASK_COUNTER = 'tasks'

/** The node id, creating the task counter with `$nodeId` when it does not exist yet. */
export const TASK_NODE_ID = cypher(
  `MERGE (c:Counter {name: $counter}) ON CREATE SET c.value = 0, c.nodeId = $nodeId
   RETURN c.nodeId AS nodeId`,
  'counter',
  'nodeId',
)

/** The node id when the task counter exists (a read, no row otherwise). */
export const READ_TASK_NODE_ID = cypher(
  `MATCH (c:Counter {name: $counter}) RETURN c.nodeId AS nodeId`,
  'counter',
)

/** Records a running task under the next id; returns it. */
export const CREATE_TASK = cypher(
  `MERGE (c:Counter {name: $counter}) ON CREATE SET c.value = 0, c.nodeId = $nodeId
   SET c.value = c.value + 1
   CREATE (t:Task {nodeId: c.nodeId, taskId: c.value, kind: $kind, params: $params, state: $state,
     startedAt: $startedAt, updatedAt: $startedAt, runTimeNanos: 0, progress: $progress})
   RETURN t {.*} AS task`,
  'counter',
  'nodeId',
  'kind',
  'params',
  'state',
  'startedAt',
  'progress',
)

/** Changes the given fields of a task (null: keep) and stamps the update. */
export const UPDATE_TASK = cypher(
  `MATCH (t:Task {nodeId: $nodeId, taskId: $taskId})
   SET t.state = coalesce($state, t.state), t.progress = coalesce($progress, t.progress),
     t.runTimeNanos = coalesce($runTimeNanos, t.runTimeNanos), t.error = coalesce($error, t.error),
     t.updatedAt = $updatedAt`,
  'nodeId',
  'taskId',
  'state',
  'progress',
  'runTimeNanos',
  'error',
  'updatedAt',
)

/** One task. */
export const TASK = cypher(
  `MATCH (t:Task {nodeId: $nodeId, taskId: $taskId}) RETURN t {.*} AS task`,
  'nodeId',
  'taskId',
)

/** Tasks in a state, oldest first. */
export const TASKS_IN_STATE = cypher(
  `MATCH (t:Task {state: $state}) RETURN t {.*} AS task ORDER BY task.taskId`,
  'state',
)
