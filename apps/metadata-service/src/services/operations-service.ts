import { InvalidInputError, NotFoundError, type Registry } from '@catalog/core'
import type { MetadataStore, TimeseriesIndexSize } from '@catalog/store'
import type { AfterWrite } from './ingest-service.js'
import { javaFixed2 } from './operations-format.js'
import { IndexRestorer, type ProgressLog, type RestoreIndicesRequest } from './operations-restore.js'
import { RESTORE_TASK, type TaskRunner, type TaskStatus } from './tasks-service.js'
import { resolveTimeseriesIndex } from './timeseries-service.js'

export const TRUNCATE_DEFAULT_BATCH = 10_000
export const TRUNCATE_MAX_BATCH = 100_000
const TASK_PATTERN = /^[a-zA-Z0-9-_]+:[0-9]+$/

/** `truncateTimeseriesAspect` parameters. */
export interface TruncateRequest {
  readonly entityType: string
  readonly aspect: string
  readonly endTimeMillis: number
  readonly dryRun?: boolean
  readonly batchSize?: number
  readonly timeoutSeconds?: number
  readonly forceDeleteByQuery?: boolean
  readonly forceReindex?: boolean
}

/** `getEsTaskStatus` parameters: `task`, or `nodeId` + `taskId`. */
export interface TaskStatusRequest {
  readonly task?: string
  readonly nodeId?: string
  readonly taskId?: number
}

/** One entry of `getIndexSizes`. */
export interface IndexSize {
  readonly entityName: string
  /** The real (camelCase) aspect name, which truncateTimeseriesAspect accepts. */
  readonly aspectName: string
  readonly indexName: string
  readonly sizeInMb: number
  readonly sizeMb: number
  readonly rowCount: number
}

/**
 * Index maintenance (`/operations`): time-series truncation as durable background tasks,
 * their status, time-series index sizes, and restoreIndices. Strings are DataHub's.
 */
export class OperationsService {
  private readonly restorer: IndexRestorer

  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly tasks: TaskRunner,
    afterWrite?: AfterWrite,
    log?: ProgressLog,
  ) {
    this.restorer = new IndexRestorer(registry, store, afterWrite, log)
  }

  /**
   * A dry run reports what would go and changes nothing; otherwise starts a background task
   * deleting the rows with `timestampMillis <= endTimeMillis` and returns its id.
   */
  async truncate(req: TruncateRequest): Promise<string> {
    const { entity, aspect } = resolveTimeseriesIndex(this.registry, req.entityType, req.aspect, {
      ignoreCase: true,
    })
    if (req.endTimeMillis < 0) throw new InvalidInputError('endTimeMillis must not be negative')
    const batchSize = req.batchSize ?? TRUNCATE_DEFAULT_BATCH
    if (batchSize < 1 || batchSize > TRUNCATE_MAX_BATCH) {
      throw new InvalidInputError(`batchSize must be between 1 and ${TRUNCATE_MAX_BATCH}`)
    }
    if (req.timeoutSeconds !== undefined && req.timeoutSeconds < 1) {
      throw new InvalidInputError('timeoutSeconds must be at least 1')
    }
    if (req.forceDeleteByQuery !== undefined && req.forceDeleteByQuery === req.forceReindex) {
      return 'please only set forceReindex OR forceDeleteByQuery flags'
    }
    const index = { entityType: entity.name, aspect: aspect.name }
    const { matching, total } = await this.store.timeseriesCounts(index, req.endTimeMillis)
    const reindex =
      req.forceDeleteByQuery !== true && (req.forceReindex === true || matching > Math.floor(total / 2))
    let summary = `Delete ${matching} out of ${total} rows (${javaFixed2((matching / total) * 100)}%). `
    summary += reindex
      ? 'Reindexing the aspect without the deleted records. '
      : 'Issuing a delete by query request. '
    if (req.dryRun !== false) return `${summary}This was a dry run. Run with dryRun = false to execute.`
    return this.tasks.startTruncate(
      {
        ...index,
        endTimeMillis: req.endTimeMillis,
        batchSize,
        ...(req.timeoutSeconds !== undefined ? { timeoutSeconds: req.timeoutSeconds } : {}),
        mode: reindex ? 'reindex' : 'deleteByQuery',
      },
      matching,
    )
  }

  /** The task's status as a JSON string, or the `error` text when there is no such task. */
  async taskStatus(req: TaskStatusRequest): Promise<string> {
    const taskId = req.taskId ?? 0
    const taskSpecified = req.task !== undefined
    const nodeAndTaskId = req.nodeId !== undefined && taskId > 0
    if (!taskSpecified && !nodeAndTaskId) {
      throw new InvalidInputError('Please specify either Node ID + task ID OR composite task parameters')
    }
    if (taskSpecified && nodeAndTaskId && req.task !== `${req.nodeId}:${taskId}`) {
      throw new InvalidInputError('Please specify only one of Node ID + task ID OR composite task parameters')
    }
    if (taskSpecified && !validTask(req.task as string)) {
      throw new InvalidInputError(
        `Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got ${req.task})`,
      )
    }
    let node = req.nodeId as string
    let id = taskId
    if (!nodeAndTaskId) {
      const [n, i] = (req.task as string).split(':')
      node = n as string
      id = Number(i)
    }
    const status = Number.isSafeInteger(id) ? await this.tasks.status(node, id) : undefined
    if (!status) return JSON.stringify({ error: `Could not get task status for ${node}:${id}` })
    return JSON.stringify(status)
  }

  /**
   * DataHub's OpenAPI `getTaskStatus`: the task as an object. A malformed id is a 400 with
   * DataHub's message; an unknown one a 404 (DataHub answers 500 with the same message).
   */
  async taskStatusObject(task: string): Promise<TaskStatus> {
    if (!validTask(task)) {
      throw new InvalidInputError(
        `Task ID should be in the form nodeId:taskId e.g. aB1cdEf2GHI-JKLMnoPQr3:123456 (got ${task})`,
      )
    }
    const [node, id] = task.split(':') as [string, string]
    const status = Number.isSafeInteger(Number(id)) ? await this.tasks.status(node, Number(id)) : undefined
    if (!status) throw new NotFoundError(`Could not get task status for ${node}:${id}`)
    return status
  }

  /**
   * One entry per time-series index of the registry (entity type x time-series aspect), empty
   * ones included, with the bytes its rows take.
   */
  async indexSizes(): Promise<IndexSize[]> {
    const stored = new Map<string, TimeseriesIndexSize>(
      (await this.store.timeseriesSizes()).map((s) => [`${s.entityType}\u0000${s.aspect}`, s]),
    )
    const out: IndexSize[] = []
    const seen = new Set<string>()
    const add = (entityName: string, aspectName: string) => {
      const id = `${entityName}\u0000${aspectName}`
      if (seen.has(id)) return
      seen.add(id)
      const size = stored.get(id)
      const mb = (size?.bytes ?? 0) / 1e6
      out.push({
        entityName,
        aspectName,
        indexName: `${entityName}_${aspectName}aspect_v1`.toLowerCase(),
        sizeInMb: mb,
        sizeMb: mb,
        rowCount: size?.rows ?? 0,
      })
    }
    for (const entity of this.registry.allEntities()) {
      for (const name of entity.aspects) {
        if (this.registry.findAspect(entity, name)?.timeseries) add(entity.name, name)
      }
    }
    for (const s of stored.values()) add(s.entityType, s.aspect)
    return out.sort((a, b) => a.indexName.localeCompare(b.indexName))
  }

  /**
   * Re-derives edges and search documents of the selected rows; DataHub's report string. The
   * run is recorded as a task (`restoreIndices`) while it runs, so `getEsTaskStatus` with its
   * id (logged as it starts) shows the rows restored so far; the answer stays synchronous, as
   * DataHub's Rest.li and OpenAPI restoreIndices are.
   */
  restoreIndices(req: RestoreIndicesRequest, actor: string): Promise<string> {
    return this.restorer.restore(req, actor, (args) => this.tasks.track(RESTORE_TASK, args))
  }
}

/** DataHub's `isTaskIdValid`: `node:number`, the number not 0. */
function validTask(task: string): boolean {
  if (!TASK_PATTERN.test(task)) return false
  const n = Number(task.split(':')[1])
  return Number.isSafeInteger(n) && n !== 0
}
