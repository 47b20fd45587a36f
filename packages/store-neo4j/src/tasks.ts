import { randomBytes } from 'node:crypto'
import type { NewTask, StoredTask, TaskState, TaskStore, TaskUpdate } from '@catalog/store'
import type { Neo4jConnection } from './connection.js'
import {
  CREATE_TASK,
  READ_TASK_NODE_ID,
  TASK,
  TASK_COUNTER,
  TASK_NODE_ID,
  TASKS_IN_STATE,
  UPDATE_TASK,
} from './cypher-tasks.js'
import { int } from './mapping.js'

/** A `(:Task)` node's properties. */
export interface TaskNode {
  readonly nodeId: string
  readonly taskId: number
  readonly kind: string
  readonly params: string
  readonly state: TaskState
  readonly startedAt: number
  readonly updatedAt: number
  readonly runTimeNanos: number
  readonly progress: string
  readonly error?: string | null
}

/** A task node as the port's {@link StoredTask}. */
export function toStoredTask(node: TaskNode): StoredTask {
  return {
    nodeId: node.nodeId,
    taskId: node.taskId,
    kind: node.kind,
    params: JSON.parse(node.params) as Record<string, unknown>,
    state: node.state,
    startedAt: node.startedAt,
    updatedAt: node.updatedAt,
    runTimeNanos: node.runTimeNanos,
    progress: JSON.parse(node.progress) as Record<string, unknown>,
    ...(typeof node.error === 'string' ? { error: node.error } : {}),
  }
}

/** An integer for Cypher when it is a safe one, else the number as a float (a huge run time). */
function wholeNumber(value: number): unknown {
  return Number.isSafeInteger(value) ? int(value) : value
}

/**
 * Durable task records of the Neo4j store (`TaskStore`): task nodes numbered by a counter
 * node that also holds the store's node id, so both survive restarts. A process proposes a
 * random node id; the first one stored wins and every process of the database uses it.
 */
export class Neo4jTasks implements TaskStore {
  private readonly candidate = randomBytes(16).toString('base64url')

  constructor(private readonly connection: Neo4jConnection) {}

  async taskNodeId(): Promise<string> {
    const [stored] = await this.connection.read(
      (tx) => tx.run(READ_TASK_NODE_ID, { counter: TASK_COUNTER }),
      'task read',
    )
    if (typeof stored?.nodeId === 'string') return stored.nodeId
    const row = await this.connection.write(
      (tx) => tx.one(TASK_NODE_ID, { counter: TASK_COUNTER, nodeId: this.candidate }),
      'task write',
    )
    return String(row.nodeId)
  }

  async createTask(task: NewTask): Promise<StoredTask> {
    const row = await this.connection.write(
      (tx) =>
        tx.one(CREATE_TASK, {
          counter: TASK_COUNTER,
          nodeId: this.candidate,
          kind: task.kind,
          params: JSON.stringify(task.params),
          state: 'running' satisfies TaskState,
          startedAt: int(task.startedAt),
          progress: JSON.stringify(task.progress),
        }),
      'task write',
    )
    return toStoredTask(row.task as TaskNode)
  }

  async updateTask(nodeId: string, taskId: number, update: TaskUpdate): Promise<void> {
    if (!Number.isSafeInteger(taskId)) return
    await this.connection.write(
      (tx) =>
        tx.run(UPDATE_TASK, {
          nodeId,
          taskId: int(taskId),
          state: update.state ?? null,
          progress: update.progress ? JSON.stringify(update.progress) : null,
          runTimeNanos: update.runTimeNanos === undefined ? null : wholeNumber(update.runTimeNanos),
          error: update.error ?? null,
          updatedAt: int(Date.now()),
        }),
      'task write',
    )
  }

  async task(nodeId: string, taskId: number): Promise<StoredTask | undefined> {
    if (!Number.isSafeInteger(taskId)) return undefined
    const [row] = await this.connection.read(
      (tx) => tx.run(TASK, { nodeId, taskId: int(taskId) }),
      'task read',
    )
    return row ? toStoredTask(row.task as TaskNode) : undefined
  }

  async tasksInState(state: TaskState): Promise<StoredTask[]> {
    const rows = await this.connection.read((tx) => tx.run(TASKS_IN_STATE, { state }), 'task read')
    return rows.map((r) => toStoredTask(r.task as TaskNode))
  }
}
