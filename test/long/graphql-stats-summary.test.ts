import t from 'tap'
import { adminWrite, deactivatePolicy, gql as gqlAs, tokenFor } from '../helpers/actors.js'
import { build, ingestGolden, type Json } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/** `statsSummary` of datasets and dashboards (DataHub's search cards and entity headers). */

const DS = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,shop.orders,PROD)'
const DAY = 86_400_000
const user = (n: string) => `urn:li:corpuser:${n}`

function usage(daysAgo: number, queries: number, users: Array<[string, number]>): Json {
  const timestampMillis = Math.floor((Date.now() - daysAgo * DAY) / DAY) * DAY
  return {
    timestampMillis,
    eventGranularity: { unit: 'DAY', multiple: 1 },
    uniqueUserCount: users.length,
    totalSqlQueries: queries,
    userCounts: users.map(([u, count]) => ({ user: user(u), count })),
  }
}

t.test("a dataset's queries, users and top users of the last 30 days", async (t) => {
  const { app } = await build(t)
  await ingestAspect(app, 'dataset', DS, 'datasetProperties', { name: 'orders' })
  const query = `{ dataset(urn: "${DS}") { statsSummary { queryCountLast30Days uniqueUserCountLast30Days topUsersLast30Days { urn } } } }`
  t.same(
    (await gql(app, query)).data.dataset.statsSummary,
    {
      queryCountLast30Days: null,
      uniqueUserCountLast30Days: 0,
      topUsersLast30Days: [],
    },
    'no usage yet',
  )
  for (const [daysAgo, queries, users] of [
    [
      1,
      10,
      [
        ['ann', 6],
        ['bob', 4],
      ],
    ],
    [
      2,
      7,
      [
        ['bob', 5],
        ['cy', 1],
        ['dee', 1],
      ],
    ],
    [
      3,
      3,
      [
        ['eve', 1],
        ['fay', 1],
        ['gus', 1],
      ],
    ],
    [45, 99, [['old', 99]]],
  ] as Array<[number, number, Array<[string, number]>]>) {
    await ingestAspect(app, 'dataset', DS, 'datasetUsageStatistics', usage(daysAgo, queries, users))
  }
  const summary = (await gql(app, query)).data.dataset.statsSummary
  t.equal(summary.queryCountLast30Days, 20, 'the last 30 days only')
  t.equal(summary.uniqueUserCountLast30Days, 7)
  t.same(
    summary.topUsersLast30Days.map((u: Json) => u.urn),
    [user('bob'), user('ann'), user('cy'), user('dee'), user('eve')],
    'the top 5 by queries, ties by urn',
  )
})

t.test("a dashboard's views and users", async (t) => {
  const { app } = await build(t)
  await ingestGolden(app, 'hex__hex_mce_golden.json')
  const dashboard = 'urn:li:dashboard:(hex,hex_test.d73da67d-c87b-4dd8-9e7f-b79cb7f822cf)'
  const now = Math.floor(Date.now() / DAY) * DAY
  // The golden file's absolute count (16) and its weekly bucket share a time: both are kept.
  await ingestAspect(app, 'dashboard', dashboard, 'dashboardUsageStatistics', {
    timestampMillis: now,
    eventGranularity: { unit: 'DAY', multiple: 1 },
    userCounts: [
      { user: user('ann'), usageCount: 3, viewsCount: 3 },
      { user: user('bob'), usageCount: 5, viewsCount: 5 },
    ],
  })
  const answer = await gql(
    app,
    `{ dashboard(urn: "${dashboard}") { statsSummary { viewCount viewCountLast30Days uniqueUserCountLast30Days topUsersLast30Days { urn } } } }`,
  )
  t.notOk(answer.errors, 'no errors')
  t.same(answer.data.dashboard.statsSummary, {
    viewCount: 16,
    viewCountLast30Days: null,
    uniqueUserCountLast30Days: 2,
    topUsersLast30Days: [{ urn: user('bob') }, { urn: user('ann') }],
  })
})

t.test('usage needs VIEW_DATASET_USAGE: null without it', async (t) => {
  const built = await build(t, { auth: true })
  await adminWrite(built, DS, 'datasetProperties', { name: 'orders' })
  await adminWrite(built, 'urn:li:corpuser:nobody', 'corpUserInfo', { active: true })
  // DataHub's default policy 'view-dataset-sensitive' gives every user usage and profiles: off here.
  await deactivatePolicy(built, 'view-dataset-sensitive')
  const token = await tokenFor(built, 'urn:li:corpuser:nobody')
  const query = `{ dataset(urn: "${DS}") { statsSummary { uniqueUserCountLast30Days } } }`
  const refused = await gqlAs(built.app, token, query)
  t.same(refused.body.data?.dataset?.statsSummary ?? null, null)
  const admin = await gqlAs(built.app, built.adminToken as string, query)
  t.same(admin.body.data.dataset.statsSummary, { uniqueUserCountLast30Days: 0 })
})
