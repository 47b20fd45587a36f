import { InvalidInputError, type Registry, type StoredAspect, ValidationError } from '@catalog/core'
import type { MetadataStore, RestateItem } from '@catalog/store'
import type { AfterWrite } from './ingest-service.js'
import type { TrackedTask } from './tasks-service.js'

/** `restoreIndices` parameters (all optional). */
export interface RestoreIndicesRequest {
  readonly urn?: string
  readonly aspect?: string
  /** SQL LIKE pattern over URNs. */
  readonly urnLike?: string
  /** Row offset in (urn, aspect) order. Default 0. */
  readonly start?: number
  /** Rows per batch. Default 10. */
  readonly batchSize?: number
  /** Rows in this call; 0 means every selected row. Default: all rows of `urn`, else one batch. */
  readonly limit?: number
  /** Only rows written at or after / at or before (epoch millis). */
  readonly gePitEpochMs?: number
  readonly lePitEpochMs?: number
}

export const RESTORE_DEFAULT_BATCH = 10
export const RESTORE_MAX_BATCH = 10_000
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))
/** How often a running restore logs its progress. */
const PROGRESS_EVERY_MS = 5_000

/** Records a run as a task (see `TaskRunner.track`), given its checked arguments. */
export type TrackRestore = (args: Record<string, unknown>) => Promise<TrackedTask>

/** Where a long operation reports progress (a pino logger fits), every `everyMs` (default 5 s). */
export type ProgressLog = {
  info: (fields: Record<string, unknown>, message: string) => void
  everyMs?: number
}

/**
 * Re-derives edges and search documents from the stored latest aspect rows: each selected row
 * is re-announced through `store.restate` (its edges replaced, an UPSERT change-log entry
 * appended for the search index), in batches with a yield to the event loop between them,
 * so ingest keeps running alongside. Pages by offset and looks back one batch, so rows that
 * concurrent deletes shift backwards are not skipped.
 */
export class IndexRestorer {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly afterWrite?: AfterWrite,
    private readonly log?: ProgressLog,
  ) {}

  /**
   * Restores the selected rows and reports it as DataHub's `Map.toString()` of args and result.
   * With `track`, the run is recorded as a task once its arguments are checked, so its progress
   * can be read (`getEsTaskStatus`) while it runs; the task id is logged as it starts.
   */
  async restore(req: RestoreIndicesRequest, actor: string, track?: TrackRestore): Promise<string> {
    const args = this.check(req)
    const task = track ? await track(JSON.parse(JSON.stringify(args))) : undefined
    if (task) this.log?.info({ task: task.id, ...args }, `restoreIndices: running as task ${task.id}`)
    try {
      const report = await this.run(args, actor, task)
      await task?.finish()
      return report
    } catch (err) {
      await task?.finish(err as Error)
      throw err
    }
  }

  private async run(
    args: ReturnType<IndexRestorer['check']>,
    actor: string,
    task: TrackedTask | undefined,
  ): Promise<string> {
    const started = Date.now()
    let batches = 0
    const result = {
      ignored: 0,
      rowsMigrated: 0,
      timeSqlQueryMs: 0,
      timeEntityRegistryCheckMs: 0,
      createRecordMs: 0,
      sendMessageMs: 0,
      lastUrn: '',
      lastAspect: '',
    }
    let wanted = args.limit === 0 ? Number.POSITIVE_INFINITY : args.limit
    let offset = args.start
    let last: StoredAspect | undefined
    let seq = 0
    let reported = started
    const progress = (message: string) =>
      this.log?.info(
        {
          rowsMigrated: result.rowsMigrated,
          ignored: result.ignored,
          lastUrn: result.lastUrn,
          ms: Date.now() - started,
        },
        message,
      )
    while (wanted > 0) {
      if (this.log && Date.now() - reported >= (this.log.everyMs ?? PROGRESS_EVERY_MS)) {
        reported = Date.now()
        progress(`restoreIndices: ${result.rowsMigrated} rows restored so far`)
      }
      const size = Math.min(args.batchSize, wanted)
      const lookBack = last ? Math.min(args.batchSize, offset - args.start) : 0
      let t = Date.now()
      const scanned = await this.store.scan({
        ...(args.urn ? { urn: args.urn } : {}),
        ...(args.urnLike ? { urnLike: args.urnLike } : {}),
        ...(args.aspect ? { aspect: args.aspect } : {}),
        start: offset - lookBack,
        limit: size + lookBack,
      })
      result.timeSqlQueryMs += Date.now() - t
      const after = last
      const rows = (after ? scanned.filter((r) => compareKey(r, after) > 0) : scanned).slice(0, size)
      const exhausted = scanned.length < size + lookBack
      if (rows.length > 0) {
        t = Date.now()
        const items: RestateItem[] = []
        for (const row of rows) {
          const item = this.restateItem(row)
          if (!item) result.ignored++
          else if (row.created.time >= args.gePitEpochMs && row.created.time <= args.lePitEpochMs)
            items.push(item)
        }
        result.timeEntityRegistryCheckMs += Date.now() - t
        t = Date.now()
        // Scan and restate run back to back (no macrotask between them), so on the embedded
        // store no commit can slip in and the restated values are the latest ones.
        if (items.length > 0) seq = (await this.store.restate(items, { time: Date.now(), actor })).seq
        result.sendMessageMs += Date.now() - t
        result.rowsMigrated += items.length
        last = rows[rows.length - 1] as StoredAspect
        result.lastUrn = last.urn
        result.lastAspect = last.aspect
        wanted -= rows.length
        batches++
        await task?.progress({
          rowsMigrated: result.rowsMigrated,
          ignored: result.ignored,
          batches,
          lastUrn: result.lastUrn,
        })
      }
      // Concurrent inserts before the offset can leave a window with nothing new: move on.
      offset += rows.length > 0 ? rows.length : size
      if (exhausted) break
      await yieldToEventLoop()
    }
    const t = Date.now()
    if (seq > 0 && this.afterWrite) await this.afterWrite(seq)
    result.sendMessageMs += Date.now() - t
    result.createRecordMs = Math.max(0, Date.now() - started - result.timeSqlQueryMs - result.sendMessageMs)
    if (this.log && Date.now() - started >= (this.log.everyMs ?? PROGRESS_EVERY_MS))
      progress(`restoreIndices: done, ${result.rowsMigrated} rows restored`)
    return format(args, result)
  }

  private check(req: RestoreIndicesRequest) {
    const start = req.start ?? 0
    const batchSize = req.batchSize ?? RESTORE_DEFAULT_BATCH
    if (!Number.isInteger(start) || start < 0)
      throw new InvalidInputError('start must be a non-negative integer')
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > RESTORE_MAX_BATCH) {
      throw new InvalidInputError(`batchSize must be between 1 and ${RESTORE_MAX_BATCH}`)
    }
    if (req.limit !== undefined && (!Number.isInteger(req.limit) || req.limit < 0)) {
      throw new InvalidInputError('limit must be a non-negative integer (0: no limit)')
    }
    if (req.urn !== undefined) {
      try {
        this.registry.resolveUrn(req.urn)
      } catch (err) {
        if (err instanceof ValidationError) throw new InvalidInputError(err.message)
        throw err
      }
    }
    if (req.aspect !== undefined && !this.knownAspect(req.aspect)) {
      throw new ValidationError(`Unknown aspect ${req.aspect}`)
    }
    const now = Date.now()
    return {
      start,
      batchSize,
      limit: req.limit ?? (req.urn !== undefined ? 0 : batchSize),
      gePitEpochMs: req.gePitEpochMs ?? 0,
      lePitEpochMs: req.lePitEpochMs ?? now,
      aspect: req.aspect,
      urn: req.urn,
      urnLike: req.urnLike,
    }
  }

  private knownAspect(name: string): boolean {
    return (
      this.registry.allAspects().some((a) => a.name === name) ||
      this.registry.allEntities().some((e) => e.keyAspect === name)
    )
  }

  /** The row re-announced with the edges its value produces, or undefined when the registry no longer knows it. */
  private restateItem(row: StoredAspect): RestateItem | undefined {
    const entity = this.registry.findEntity(row.urn.split(':')[2] ?? '')
    if (!entity || !this.registry.findAspect(entity, row.aspect)) return undefined
    const edges = this.registry.edges(entity, row.aspect, row.value)
    return {
      urn: row.urn,
      entityType: entity.name,
      aspect: row.aspect,
      value: row.value,
      edges: edges.map((e) => ({ type: e.type, destination: e.destination })),
    }
  }
}

/** (urn, aspect) order as the store sorts (SQLite's BINARY collation compares UTF-8 bytes). */
function compareKey(a: StoredAspect, b: StoredAspect): number {
  return (
    Buffer.compare(Buffer.from(a.urn), Buffer.from(b.urn)) ||
    Buffer.compare(Buffer.from(a.aspect), Buffer.from(b.aspect))
  )
}

function format(
  args: ReturnType<IndexRestorer['check']>,
  r: {
    ignored: number
    rowsMigrated: number
    timeSqlQueryMs: number
    timeEntityRegistryCheckMs: number
    createRecordMs: number
    sendMessageMs: number
    lastUrn: string
    lastAspect: string
  },
): string {
  const s = (v: string | undefined) => v ?? 'null'
  const argText =
    `RestoreIndicesArgs(start=${args.start}, batchSize=${args.batchSize}, limit=${args.limit}, numThreads=1, ` +
    `batchDelayMs=0, gePitEpochMs=${args.gePitEpochMs}, lePitEpochMs=${args.lePitEpochMs}, ` +
    `createDefaultAspects=false, aspectName=${s(args.aspect)}, aspectNames=[], urn=${s(args.urn)}, ` +
    `urnLike=${s(args.urnLike)}, urnBasedPagination=false, lastUrn=, lastAspect=)`
  const resultText =
    `RestoreIndicesResult(ignored=${r.ignored}, rowsMigrated=${r.rowsMigrated}, timeSqlQueryMs=${r.timeSqlQueryMs}, ` +
    `timeGetRowMs=0, timeUrnMs=0, timeEntityRegistryCheckMs=${r.timeEntityRegistryCheckMs}, aspectCheckMs=0, ` +
    `createRecordMs=${r.createRecordMs}, sendMessageMs=${r.sendMessageMs}, defaultAspectsCreated=0, ` +
    `lastUrn=${r.lastUrn}, lastAspect=${r.lastAspect})`
  return `{args=${argText}, result=${resultText}}`
}
