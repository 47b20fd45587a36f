import type { AspectValue } from '../../clients/metadata-client.js'
import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'

/** Users a summary names at most (DataHub's `MAX_TOP_USERS`). */
const TOP_USERS = 5
/** DataHub's "last 30 days": the month range, 31 days and a millisecond back from now. */
const MONTH_MS = 31 * 86_400_000 + 1

/** Whether the caller may see the entity's usage (DataHub's VIEW_DATASET_USAGE; every one with auth off). */
async function mayViewUsage(ctx: CatalogContext, urn: string): Promise<boolean> {
  if (!ctx.authorizer) return true
  return (await ctx.authorizer.granted(ctx.actor, ['VIEW_DATASET_USAGE'], urn)).size > 0
}

/** The `count` users with the most, most first (ties by URN), each a user reference. */
function topUsers(counts: ReadonlyMap<string, number>): EntitySource[] {
  return [...counts]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, TOP_USERS)
    .map(([urn]) => ({ urn }))
}

/**
 * `Dataset.statsSummary`, as DataHub's DatasetStatsSummaryResolver: over the last 30 days, the
 * queries (null without any), the distinct users and the top 5 by query count; null to a caller
 * who may not view the dataset's usage, and when usage cannot be read.
 */
export async function datasetStatsSummary(source: EntitySource, _args: unknown, ctx: CatalogContext) {
  if (!(await mayViewUsage(ctx, source.urn))) return null
  try {
    const { aggregations } = await ctx.client.usage(source.urn, 'MONTH')
    const counts = new Map<string, number>()
    for (const u of Array.isArray(aggregations.users) ? aggregations.users : []) {
      const user = (u as AspectValue | null)?.user
      if (typeof user === 'string') counts.set(user, Number((u as AspectValue).count ?? 0))
    }
    return {
      queryCountLast30Days:
        typeof aggregations.totalSqlQueries === 'number' ? aggregations.totalSqlQueries : null,
      uniqueUserCountLast30Days:
        typeof aggregations.uniqueUserCount === 'number' ? aggregations.uniqueUserCount : 0,
      topUsersLast30Days: topUsers(counts),
    }
  } catch {
    return null // as DataHub: a summary that cannot be read is absent, never a failed page
  }
}

/**
 * `Dashboard.statsSummary`, as DataHub's DashboardStatsSummaryResolver: the view count of the
 * latest absolute `dashboardUsageStatistics` value (null without one) and, from the bucketed values
 * of the last 30 days, the distinct users and the top 5 by usage; null to a caller who may not
 * view usage, and when usage cannot be read.
 */
export async function dashboardStatsSummary(source: EntitySource, _args: unknown, ctx: CatalogContext) {
  if (!(await mayViewUsage(ctx, source.urn))) return null
  const query = { urn: source.urn, entity: 'dashboard', aspect: 'dashboardUsageStatistics' }
  const granularity = (negated: boolean) => ({
    criteria: [{ field: 'eventGranularity', values: [], condition: 'EXISTS', negated }],
  })
  try {
    const now = Date.now()
    const [absolute, buckets] = await Promise.all([
      ctx.client.timeseries({ ...query, limit: 1, filter: granularity(true) }),
      ctx.client.timeseries({
        ...query,
        startTimeMillis: now - MONTH_MS,
        endTimeMillis: now,
        limit: 10_000,
        filter: granularity(false),
      }),
    ])
    const usage = new Map<string, number>()
    for (const bucket of buckets) {
      for (const c of Array.isArray(bucket.userCounts) ? bucket.userCounts : []) {
        const user = (c as AspectValue | null)?.user
        if (typeof user !== 'string') continue
        usage.set(user, (usage.get(user) ?? 0) + Number((c as AspectValue).usageCount ?? 0))
      }
    }
    const views = absolute[0]?.viewsCount
    return {
      viewCount: typeof views === 'number' ? views : null,
      viewCountLast30Days: null,
      uniqueUserCountLast30Days: usage.size,
      topUsersLast30Days: topUsers(usage),
    }
  } catch {
    return null
  }
}
