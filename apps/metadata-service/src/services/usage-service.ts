import type { Registry, TimeseriesRow } from '@catalog/core'
import type { MetadataStore } from '@catalog/store'
import type { UsageAggregation, UsageQueryResult, WindowDuration } from '../schemas/usage.js'
import type { IngestService } from './ingest-service.js'
import { bucketRange, bucketStart, rangeStart } from './usage-buckets.js'

const ENTITY = 'dataset'
const ASPECT = 'datasetUsageStatistics'
/** Rows one query aggregates (DataHub's cap on one time-series read). */
const MAX_ROWS = 10_000
/** Buckets one answer holds (Elasticsearch's default `search.max_buckets`). */
const MAX_BUCKETS = 65_536

type Row = Record<string, unknown>
const rows = (v: unknown): Row[] =>
  Array.isArray(v) ? v.filter((x): x is Row => !!x && typeof x === 'object') : []
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

/** Groups values by key: how many rows hold the key, the summed count, the newest extra value. */
class Terms {
  private readonly groups = new Map<string, { docs: number; sum: number; latest?: string; at: number }>()

  add(key: unknown, count: unknown, at: number, extra?: unknown): void {
    if (typeof key !== 'string') return
    const g = this.groups.get(key) ?? { docs: 0, sum: 0, at: -1 }
    g.docs++
    g.sum += int(count) ?? 0
    if (typeof extra === 'string' && at >= g.at) {
      g.latest = extra
      g.at = at
    }
    this.groups.set(key, g)
  }

  /** Most frequent first, then by key (a terms aggregation's order). */
  sorted() {
    return [...this.groups.entries()]
      .sort(([a, x], [b, y]) => y.docs - x.docs || (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, g]) => ({ key, ...g }))
  }
}

/**
 * DataHub's deprecated `/usageStats` resource. Buckets are stored as the `datasetUsageStatistics`
 * time-series aspect, as DataHub converts them, and queries aggregate those rows: per calendar
 * bucket the latest user count, query count and top queries; over the range the users and
 * fields with their summed counts.
 */
export class UsageService {
  constructor(
    private readonly registry: Registry,
    private readonly store: MetadataStore,
    private readonly ingest: IngestService,
  ) {}

  /** Writes each bucket as a `datasetUsageStatistics` value of its resource, in one batch. */
  async batchIngest(buckets: readonly UsageAggregation[], actor: string): Promise<void> {
    if (buckets.length === 0) return
    const proposals = buckets.map((b) => {
      const { entity } = this.registry.resolveUrn(b.resource)
      const m = b.metrics
      const value = {
        timestampMillis: b.bucket,
        eventGranularity: { unit: b.duration, multiple: 1 },
        ...(m.uniqueUserCount !== undefined ? { uniqueUserCount: m.uniqueUserCount } : {}),
        ...(m.totalSqlQueries !== undefined ? { totalSqlQueries: m.totalSqlQueries } : {}),
        ...(m.topSqlQueries !== undefined ? { topSqlQueries: m.topSqlQueries } : {}),
        ...(m.users
          ? { userCounts: m.users.map((u) => ({ ...(u.user ? { user: u.user } : {}), count: u.count })) }
          : {}),
        ...(m.fields
          ? { fieldCounts: m.fields.map((f) => ({ fieldPath: f.fieldName, count: f.count })) }
          : {}),
      }
      return {
        entityType: entity.name,
        entityUrn: b.resource,
        changeType: 'UPSERT',
        aspectName: ASPECT,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      }
    })
    await this.ingest.ingestProposals(proposals, actor)
  }

  /** `queryRange`: the range ends now and starts `rangeFromEnd` before it (`ALL`: from 0). */
  queryRange(resource: string, duration: WindowDuration, range: string, now = Date.now()) {
    return this.query(resource, duration, rangeStart(range, now), now)
  }

  async query(
    resource: string,
    duration: WindowDuration,
    startTime?: number,
    endTime?: number,
  ): Promise<UsageQueryResult> {
    this.registry.resolveUrn(resource)
    const found = await this.store.timeseries({
      urn: resource,
      entityType: ENTITY,
      aspect: ASPECT,
      limit: MAX_ROWS,
      ...(startTime !== undefined ? { startTimeMillis: startTime } : {}),
      ...(endTime !== undefined ? { endTimeMillis: endTime } : {}),
    })
    const buckets = this.buckets(found, resource, duration)
    const users = new Terms()
    const fields = new Terms()
    for (const r of found) {
      for (const u of rows(r.value.userCounts)) users.add(u.user, u.count, r.timestampMillis, u.userEmail)
      for (const f of rows(r.value.fieldCounts)) fields.add(f.fieldPath, f.count, r.timestampMillis)
    }
    const userCounts = users
      .sorted()
      .map((g) => ({ user: g.key, count: g.sum, ...(g.latest !== undefined ? { userEmail: g.latest } : {}) }))
    const totals = buckets.map((b) => b.metrics.totalSqlQueries).filter((n) => n !== undefined)
    return {
      buckets,
      aggregations: {
        users: userCounts,
        uniqueUserCount: userCounts.length,
        fields: fields.sorted().map((g) => ({ fieldName: g.key, count: g.sum })),
        ...(totals.length > 0 ? { totalSqlQueries: totals.reduce((a, b) => a + b, 0) } : {}),
      },
    }
  }

  /** One bucket per calendar window from the first row to the last, each with its latest values. */
  private buckets(found: readonly TimeseriesRow[], resource: string, duration: WindowDuration) {
    const latest = new Map<number, TimeseriesRow>()
    for (const r of found) {
      const b = bucketStart(r.timestampMillis, duration)
      const seen = latest.get(b)
      if (!seen || r.timestampMillis > seen.timestampMillis) latest.set(b, r)
    }
    const times = found.map((r) => r.timestampMillis)
    return bucketRange(times, duration, MAX_BUCKETS).map((bucket) => {
      const v = latest.get(bucket)?.value ?? {}
      const top = Array.isArray(v.topSqlQueries)
        ? v.topSqlQueries.filter((q) => typeof q === 'string')
        : undefined
      const uniqueUserCount = int(v.uniqueUserCount)
      const totalSqlQueries = int(v.totalSqlQueries)
      return {
        bucket,
        duration,
        resource,
        metrics: {
          ...(uniqueUserCount !== undefined ? { uniqueUserCount } : {}),
          ...(totalSqlQueries !== undefined ? { totalSqlQueries } : {}),
          ...(top !== undefined ? { topSqlQueries: top } : {}),
        },
      }
    })
  }
}
