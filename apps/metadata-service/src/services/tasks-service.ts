import type { MetadataStore, StoredTask, TimeseriesIndex } from '@catalog/store'
import type { Logger } from 'pino'

/** Where task progress problems are logged. */
export type TaskLog = Pick<Logger, 'info' | 'error'>

export const TRUNCATE_TASK = 'truncateTimeseriesAspect'
export const RESTORE_TASK = 'restoreIndices'
/** How often a tracked task's live progress is written to the store while it runs. */
const PERSIST_EVERY_MS = 1_000

/** Progress of a `restoreIndices` run, as it reports it. */
export interface RestoreProgress {
  readonly rowsMigrated: number
  readonly ignored: number
  readonly batches: number
  readonly lastUrn: string
}

/**
 * A task run by its caller (a synchronous `restoreIndices`) and only recorded here, so that
 * `getEsTaskStatus` shows its progress while it runs.
 */
export interface TrackedTask {
  /** `<nodeId>:<taskId>`. */
  readonly id: string
  /** The latest counters: kept in memory, written to the store at most once a second. */
  progress(progress: RestoreProgress): Promise<void>
  /** Marks the task completed (or failed, with the error's message). */
  finish(error?: Error): Promise<void>
}

/** What a truncation task was started with (stored with the task, enough to resume it). */
export interface TruncateTaskParams extends TimeseriesIndex {
  readonly endTimeMillis: number
  readonly batchSize: number
  readonly timeoutSeconds?: number
  /** How DataHub would have run it; both delete the same rows in batches here. */
  readonly mode: 'reindex' | 'deleteByQuery'
}

/** Progress counters, named as Elasticsearch's `BulkByScrollTask.Status`. */
export interface TruncateProgress {
  readonly total: number
  readonly deleted: number
  readonly batches: number
  readonly timedOut?: boolean
}

/** `getEsTaskStatus`'s view of a task. */
export interface TaskStatus {
  readonly completed: boolean
  readonly taskId: string
  readonly runTimeNanos: number
  readonly status: Record<string, unknown>
  readonly failure?: string
  readonly timedOut?: boolean
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Runs time-series truncations in the background, in batches, yielding to the event loop
 * between batches so the server keeps answering. Every batch's progress is written to the
 * store's durable task table, so `getEsTaskStatus` survives a restart; a task still running
 * when the process stopped is resumed by {@link resume} at the next start (deleting by
 * time range is idempotent, so resuming is safe).
 */
export class TaskRunner {
  private readonly active = new Map<
    string,
    { loop: Promise<void>; startedNs: bigint; baseNs: number; live?: RestoreProgress }
  >()
  private stopping = false
  private log?: TaskLog

  constructor(private readonly store: MetadataStore) {}

  /** Records and starts a truncation; returns its task id `<nodeId>:<taskId>`. */
  async startTruncate(params: TruncateTaskParams, total: number): Promise<string> {
    const progress: TruncateProgress = { total, deleted: 0, batches: 0 }
    const task = await this.store.createTask({
      kind: TRUNCATE_TASK,
      params: { ...params },
      progress: { ...progress },
      startedAt: Date.now(),
    })
    this.launch(task)
    return `${task.nodeId}:${task.taskId}`
  }

  /** Resumes the truncations a previous process left running; logs go to `log` from now on. */
  async resume(log?: TaskLog): Promise<void> {
    if (log) this.log = log
    this.stopping = false
    for (const task of await this.store.tasksInState('running')) {
      if (task.kind === RESTORE_TASK && !this.active.has(key(task.nodeId, task.taskId))) {
        // Its caller is gone with the process that ran it: it will not finish.
        const at = (task.progress as Partial<RestoreProgress>).lastUrn ?? ''
        await this.store.updateTask(task.nodeId, task.taskId, {
          state: 'failed',
          error: `interrupted: the process stopped while restoreIndices ran (last urn: ${at})`,
        })
        continue
      }
      if (task.kind === TRUNCATE_TASK && !this.active.has(key(task.nodeId, task.taskId))) {
        this.log?.info({ task: key(task.nodeId, task.taskId) }, 'resuming a truncation task')
        this.launch(task)
      }
    }
  }

  /** Stops every loop after its current batch; their tasks stay `running` until resumed. */
  async stop(): Promise<void> {
    this.stopping = true
    await Promise.all([...this.active.values()].map((a) => a.loop))
  }

  /** Records a task its caller runs (`restoreIndices`); see {@link TrackedTask}. */
  async track(kind: typeof RESTORE_TASK, params: Record<string, unknown>): Promise<TrackedTask> {
    const initial: RestoreProgress = { rowsMigrated: 0, ignored: 0, batches: 0, lastUrn: '' }
    const task = await this.store.createTask({
      kind,
      params,
      progress: { ...initial },
      startedAt: Date.now(),
    })
    const id = key(task.nodeId, task.taskId)
    let done!: () => void
    const entry = {
      loop: new Promise<void>((resolve) => {
        done = resolve
      }),
      startedNs: process.hrtime.bigint(),
      baseNs: 0,
      live: initial,
    }
    this.active.set(id, entry)
    const runTime = () => Number(process.hrtime.bigint() - entry.startedNs)
    let persisted = Date.now()
    return {
      id,
      progress: async (progress) => {
        entry.live = progress
        if (Date.now() - persisted < PERSIST_EVERY_MS) return
        persisted = Date.now()
        await this.store.updateTask(task.nodeId, task.taskId, {
          progress: { ...progress },
          runTimeNanos: runTime(),
        })
      },
      finish: async (error) => {
        try {
          await this.store.updateTask(task.nodeId, task.taskId, {
            progress: { ...entry.live },
            runTimeNanos: runTime(),
            state: error ? 'failed' : 'completed',
            ...(error ? { error: error.message } : {}),
          })
        } finally {
          this.active.delete(id)
          done()
        }
      },
    }
  }

  /** A task's status, or undefined when the store has no such task. */
  async status(nodeId: string, taskId: number): Promise<TaskStatus | undefined> {
    const task = await this.store.task(nodeId, taskId)
    if (!task) return undefined
    const live = this.active.get(key(nodeId, taskId))
    const runTimeNanos = live
      ? live.baseNs + Number(process.hrtime.bigint() - live.startedNs)
      : task.runTimeNanos
    const counters =
      task.kind === RESTORE_TASK
        ? restoreCounters((live?.live ?? task.progress) as unknown as RestoreProgress)
        : truncateCounters(task.progress as unknown as TruncateProgress)
    const timedOut = (task.progress as Partial<TruncateProgress>).timedOut === true
    return {
      completed: task.state !== 'running',
      taskId: key(task.nodeId, task.taskId),
      runTimeNanos,
      status: {
        version_conflicts: 0,
        noops: 0,
        retries: { bulk: 0, search: 0 },
        throttled_millis: 0,
        requests_per_second: -1,
        throttled_until_millis: 0,
        ...counters,
      },
      ...(task.error ? { failure: task.error } : {}),
      ...(timedOut ? { timedOut: true } : {}),
    }
  }

  private launch(task: StoredTask): void {
    const id = key(task.nodeId, task.taskId)
    const entry = { loop: Promise.resolve(), startedNs: process.hrtime.bigint(), baseNs: task.runTimeNanos }
    this.active.set(id, entry)
    entry.loop = this.run(task, entry)
      .catch((err: unknown) => this.log?.error({ err, task: id }, 'truncation task failed'))
      .finally(() => this.active.delete(id))
  }

  private async run(task: StoredTask, entry: { startedNs: bigint; baseNs: number }): Promise<void> {
    const params = task.params as unknown as TruncateTaskParams
    const index = { entityType: params.entityType, aspect: params.aspect }
    let progress = { ...(task.progress as unknown as TruncateProgress) }
    const deadline =
      params.timeoutSeconds !== undefined
        ? task.startedAt + params.timeoutSeconds * 1000
        : Number.POSITIVE_INFINITY
    const runTime = () => entry.baseNs + Number(process.hrtime.bigint() - entry.startedNs)
    const update = (state?: 'completed' | 'failed', error?: string) =>
      this.store.updateTask(task.nodeId, task.taskId, {
        progress: { ...progress },
        runTimeNanos: runTime(),
        ...(state ? { state } : {}),
        ...(error ? { error } : {}),
      })
    try {
      while (!this.stopping) {
        if (Date.now() > deadline) {
          progress = { ...progress, timedOut: true }
          await update('completed', `timed out after ${params.timeoutSeconds} seconds`)
          return
        }
        const deleted = await this.store.truncateTimeseries(index, params.endTimeMillis, params.batchSize)
        if (deleted === 0) {
          await update('completed')
          return
        }
        const done = progress.deleted + deleted
        progress = { total: Math.max(progress.total, done), deleted: done, batches: progress.batches + 1 }
        await update()
        await yieldToEventLoop()
      }
    } catch (err) {
      if (this.stopping) return
      await update('failed', (err as Error).message).catch(() => undefined)
      throw err
    }
  }
}

/** A truncation's counters, as Elasticsearch's delete-by-query reports them. */
function truncateCounters(p: TruncateProgress) {
  return { total: p.total ?? 0, updated: 0, created: 0, deleted: p.deleted ?? 0, batches: p.batches ?? 0 }
}

/**
 * A restore's counters, as Elasticsearch's reindex reports them: `updated` the rows restored,
 * `noops` the rows the registry no longer knows, `total` both (the rows read so far).
 */
function restoreCounters(p: RestoreProgress) {
  const rows = p.rowsMigrated ?? 0
  const ignored = p.ignored ?? 0
  return {
    total: rows + ignored,
    updated: rows,
    created: 0,
    deleted: 0,
    batches: p.batches ?? 0,
    noops: ignored,
  }
}

function key(nodeId: string, taskId: number): string {
  return `${nodeId}:${taskId}`
}
