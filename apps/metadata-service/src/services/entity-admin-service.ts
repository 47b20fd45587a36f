import { InvalidInputError, type Registry } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { IngestService } from './ingest-service.js'

/** DataHub's `DeleteEntityResponse`. */
export interface DeleteEntityResult {
  readonly urn: string
  readonly rows?: number
  readonly timeseriesRows: number
}

export interface TimeseriesRange {
  readonly aspectName?: string
  readonly startTimeMillis?: number
  readonly endTimeMillis?: number
}

/** DataHub's `ListUrnsResult`. */
export interface ListUrnsResult {
  readonly entities: string[]
  readonly start: number
  readonly count: number
  readonly total: number
}

/**
 * Entity-level actions of `/entities` and `/aspects`: hard delete (the key-aspect DELETE of the
 * ingest path, so edges, search and the change log follow), time-series range deletes,
 * existence and counts.
 */
export class EntityAdminService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly ingest: IngestService,
  ) {}

  /**
   * Without `aspectName`: deletes the entity (every aspect version, its edges, its search
   * document) and all its time-series rows. With it: only that time-series aspect's rows in
   * the range.
   */
  async delete(urn: string, range: TimeseriesRange, actor: string): Promise<DeleteEntityResult> {
    const { entity } = this.registry.resolveUrn(urn)
    const timeseries = entity.aspects.filter((a) => this.registry.findAspect(entity, a)?.timeseries)
    if (range.aspectName !== undefined && !timeseries.includes(range.aspectName)) {
      throw new InvalidInputError(`Not supported for non-timeseries aspect ${range.aspectName}.`)
    }
    const timeseriesRows = await this.store.deleteTimeseries({
      urn,
      aspects: range.aspectName === undefined ? timeseries : [range.aspectName],
      ...(range.startTimeMillis !== undefined ? { startTimeMillis: range.startTimeMillis } : {}),
      ...(range.endTimeMillis !== undefined ? { endTimeMillis: range.endTimeMillis } : {}),
    })
    if (range.aspectName !== undefined) return { urn, timeseriesRows }
    const outcome = await this.ingest.ingestProposals(
      [{ entityType: entity.name, entityUrn: urn, changeType: 'DELETE', aspectName: entity.keyAspect }],
      actor,
    )
    return { urn, rows: outcome.results[0]?.rows ?? 0, timeseriesRows }
  }

  /** True when the key aspect exists and, unless `includeSoftDeleted`, the entity is not soft-deleted. */
  async exists(urn: string, includeSoftDeleted: boolean): Promise<boolean> {
    const { entity } = this.registry.resolveUrn(urn)
    if (!(await this.store.exists(urn, entity.keyAspect))) return false
    if (includeSoftDeleted) return true
    const status = (await this.store.latest([urn], ['status'])).get(urn)?.[0]
    return status?.value.removed !== true
  }

  /** URNs of an entity type in URN order, by their key-aspect rows. */
  async listUrns(entityName: string, start: number, count: number): Promise<ListUrnsResult> {
    const entity = this.registry.entity(entityName)
    const rows = await this.store.scan({ aspect: entity.keyAspect, start, limit: count })
    const total = await this.store.countAspects(entity.keyAspect)
    return { entities: rows.map((r) => r.urn), start, count: rows.length, total }
  }

  /** Entities of each type (key-aspect rows); unknown types are refused. */
  async entityCounts(entityNames: readonly string[]): Promise<Record<string, number>> {
    const out: Record<string, number> = {}
    for (const name of entityNames) {
      out[name] = await this.store.countAspects(this.registry.entity(name).keyAspect)
    }
    return out
  }

  /** Latest rows of an aspect, optionally of URNs matching a SQL LIKE pattern. */
  countAspect(aspect: string, urnLike?: string): Promise<number> {
    return this.store.countAspects(aspect, urnLike)
  }
}
