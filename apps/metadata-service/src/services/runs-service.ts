import { InvalidInputError, NO_RUN_ID, type Registry } from '@catalog/core'
import type { MetadataStore, RunAspect } from '@catalog/store'
import type { IngestService } from './ingest-service.js'
import { RunTimeseries } from './runs-timeseries.js'

/** DataHub's `AspectRowSummary`. */
export interface AspectRowSummary {
  readonly runId: string
  readonly aspectName: string
  readonly urn: string
  readonly timestamp: number
  readonly keyAspect: boolean
  readonly aspect?: Record<string, unknown>
}

/** DataHub's `RollbackResponse`. */
export interface RollbackResult {
  readonly entitiesAffected: number
  readonly entitiesDeleted: number
  readonly aspectsReverted: number
  readonly aspectsAffected: number
  readonly unsafeEntitiesCount: number
  readonly unsafeEntities: Array<{ urn: string }>
  readonly aspectRowSummaries: AspectRowSummary[]
}

export interface RollbackOptions {
  readonly dryRun: boolean
  /** Deprecated in DataHub; `safe` wins when both are given. */
  readonly hardDelete?: boolean
  readonly safe?: boolean
}

/** DataHub's cap on the rows of one run it reads at once (`ESUtils.MAX_RESULT_SIZE`). */
const MAX_ROWS = 10_000
/** Summaries a rollback answer carries. */
const MAX_SUMMARIES = 100

/**
 * Ingestion runs (`/runs`): a run is the `systemMetadata.runId` of its writes; its rows are the
 * latest aspect rows it wrote last (an aspect another run wrote since belongs to that run).
 * Rollback restores each of them to its previous version and deletes the entities the run
 * created: hard, or soft (`status.removed`) by default.
 */
export class RunsService {
  private readonly timeseries: RunTimeseries

  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly ingest: IngestService,
  ) {
    this.timeseries = new RunTimeseries(registry, store)
  }

  list(start: number, count: number, includeSoftDeleted: boolean) {
    return this.store.runs({ start, count, includeSoftDeleted })
  }

  async describe(
    runId: string,
    page: { start: number; count: number; includeSoftDeleted: boolean },
    includeAspect: boolean,
  ): Promise<AspectRowSummary[]> {
    const rows = (await this.store.runAspects(runId, page)).map((r) => this.summary(r))
    if (!includeAspect) return rows
    const latest = await this.store.latest([...new Set(rows.map((r) => r.urn))])
    return rows.map((r) => {
      const value = latest.get(r.urn)?.find((a) => a.aspect === r.aspectName)?.value
      return value ? { ...r, aspect: value } : r
    })
  }

  async rollback(runId: string, options: RollbackOptions, actor: string): Promise<RollbackResult> {
    if (runId === NO_RUN_ID) {
      throw new InvalidInputError(
        `${runId} is a default run-id provided for non labeled ingestion runs. You cannot delete using this reserved run-id`,
      )
    }
    const hard = options.safe !== undefined ? !options.safe : (options.hardDelete ?? false)
    const found = await this.store.runAspects(runId, { start: 0, count: MAX_ROWS, includeSoftDeleted: hard })
    const rows = found.map((r) => this.summary(r))
    const keyRows = rows.filter((r) => r.keyAspect)
    const unsafe = await this.unsafeAspects(keyRows, runId)
    const unsafeUrns = [...new Set(unsafe.map((r) => r.urn))]
    const base = {
      entitiesDeleted: keyRows.length,
      aspectsAffected: unsafe.length,
      unsafeEntitiesCount: unsafeUrns.length,
      unsafeEntities: unsafeUrns.map((urn) => ({ urn })),
    }
    const reverted = hard ? rows : rows.filter((r) => !r.keyAspect)
    if (options.dryRun) {
      return {
        ...base,
        entitiesAffected: new Set(rows.map((r) => r.urn)).size,
        aspectsReverted: reverted.length,
        aspectRowSummaries: reverted.slice(0, MAX_SUMMARIES),
      }
    }
    // The run's time-series rows go too (DataHub counts them as reverted aspects).
    const series = await this.timeseries.delete(
      await this.timeseries.find(
        rows.map((r) => r.urn),
        runId,
      ),
    )
    const targets = reverted.map((r) => ({ urn: r.urn, aspect: r.aspectName }))
    const outcome = await this.ingest.rollback(targets, runId, actor)
    const changed = outcome.results.filter((r) => r.changed)
    // A key aspect rolled back takes the entity's other rows with it.
    const extra = changed.reduce(
      (n, r) => n + (this.isKey(r.urn, r.aspect) ? Math.max(0, (r.rows ?? 1) - 1) : 0),
      0,
    )
    if (!hard && keyRows.length > 0)
      await this.softDelete(
        keyRows.map((r) => r.urn),
        actor,
      )
    return {
      ...base,
      entitiesAffected: new Set(changed.map((r) => r.urn)).size,
      aspectsReverted: changed.length + extra + series,
      aspectRowSummaries: rows.slice(0, MAX_SUMMARIES),
    }
  }

  /** Aspects of the entities being deleted that other runs wrote (status and keys aside). */
  private async unsafeAspects(keyRows: readonly AspectRowSummary[], runId: string) {
    if (keyRows.length === 0) return []
    const latest = await this.store.latest(keyRows.map((r) => r.urn))
    return [...latest.values()]
      .flat()
      .filter(
        (a) => a.systemMetadata?.runId !== runId && a.aspect !== 'status' && !this.isKey(a.urn, a.aspect),
      )
  }

  private async softDelete(urns: readonly string[], actor: string): Promise<void> {
    const proposals = urns.map((urn) => ({
      entityType: this.registry.resolveUrn(urn).entity.name,
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { value: JSON.stringify({ removed: true }), contentType: 'application/json' },
    }))
    await this.ingest.ingestProposals(proposals, actor)
  }

  private summary(r: RunAspect): AspectRowSummary {
    return {
      runId: r.runId,
      aspectName: r.aspect,
      urn: r.urn,
      timestamp: r.timestamp,
      keyAspect: this.isKey(r.urn, r.aspect),
    }
  }

  private isKey(urn: string, aspect: string): boolean {
    try {
      return this.registry.resolveUrn(urn).entity.keyAspect === aspect
    } catch {
      return false
    }
  }
}
