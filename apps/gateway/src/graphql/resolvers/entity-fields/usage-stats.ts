import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../../clients/metadata-client.js'
import type { CatalogContext } from '../../context.js'
import { type EntitySource, type Mapped, num, ref, str } from '../../mappers/common.js'

const list = (v: unknown): AspectValue[] =>
  Array.isArray(v) ? v.filter((x): x is AspectValue => x !== null && typeof x === 'object') : []

function users(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return list(v).map((u) => ({
    user: ref(u.user, ['corpuser']) ?? null,
    count: num(u.count),
    userEmail: str(u.userEmail),
  }))
}

function fields(v: unknown): Mapped[] | null {
  if (!Array.isArray(v)) return null
  return list(v).map((f) => ({ fieldName: str(f.fieldName), count: num(f.count) }))
}

/**
 * `usageStats(range:)` of a dataset, as DataHub's UsageTypeResolver: daily buckets of the
 * `datasetUsageStatistics` time series over the range ending now, and their aggregations
 * (UsageQueryResultMapper). DataHub requires `range`; `resource`, `startTimeMillis` and
 * `timeZone` are the dashboard-side arguments it does not read here either.
 */
export async function usageStatsField(
  source: EntitySource,
  args: { range?: string | null },
  ctx: CatalogContext,
) {
  if (!args.range)
    throw new InvalidInputError('usageStats needs a range (HOUR, DAY, WEEK, MONTH, QUARTER, YEAR or ALL)')
  const answer = await ctx.client.usage(source.urn, args.range)
  const aggregations = answer.aggregations
  return {
    buckets: answer.buckets.map((b) => ({
      bucket: b.bucket,
      duration: b.duration,
      resource: b.resource,
      metrics: {
        uniqueUserCount: num(b.metrics.uniqueUserCount),
        users: users(b.metrics.users),
        totalSqlQueries: num(b.metrics.totalSqlQueries),
        topSqlQueries: Array.isArray(b.metrics.topSqlQueries) ? b.metrics.topSqlQueries : null,
        fields: fields(b.metrics.fields),
      },
    })),
    aggregations: {
      uniqueUserCount: num(aggregations.uniqueUserCount),
      users: users(aggregations.users),
      fields: fields(aggregations.fields),
      totalSqlQueries: num(aggregations.totalSqlQueries),
    },
  }
}
