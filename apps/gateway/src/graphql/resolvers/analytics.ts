import { GraphQLError } from 'graphql'

/**
 * What DataHub's GraphQL engine (graphql-java) answers for a non-null root field that has no
 * data fetcher: the field resolves to null, `data` is null, and this error says so.
 */
function unwired(field: string, type: string): never {
  throw new GraphQLError(
    `The field at path '/${field}' was declared as a non null type, but the code involved in retrieving data has wrongly returned a null value.  The graphql specification requires that the parent field be set to null, or if that is non nullable that it bubble up null to its parent and so on. The non-nullable type is '${type}' within parent type 'Query'`,
  )
}

/**
 * DataHub's analytics fields as DataHub answers them with analytics disabled, which this
 * catalog is (`appConfig.analyticsConfig.enabled` is false: it keeps no usage-event index).
 * DataHub then wires only `isAnalyticsEnabled`; `getHighlights`, `getAnalyticsCharts` and
 * `getMetadataAnalyticsCharts` have no data fetcher. (With analytics enabled but no usage
 * index, DataHub's `GetHighlightsResolver` fails on its first highlight, weekly active users,
 * and answers an empty list: the per-type coverage counts after it are never reached.)
 */
export const analyticsQueries = {
  /** DataHub's `IsAnalyticsEnabledResolver`. */
  isAnalyticsEnabled: () => false,
  getHighlights: () => unwired('getHighlights', '[Highlight!]'),
  getAnalyticsCharts: () => unwired('getAnalyticsCharts', '[AnalyticsChartGroup!]'),
  getMetadataAnalyticsCharts: () => unwired('getMetadataAnalyticsCharts', '[AnalyticsChartGroup!]'),
}
