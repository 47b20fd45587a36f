/** Time-series aspects (`@Aspect(type = "timeseries")`): stored apart, keyed by `timestampMillis`. */
import { Type } from '@sinclair/typebox'
import { Enum, Opt, StringMap, TimeseriesBase, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import { open } from './records.js'

/** `com.linkedin.dataset.DatasetFieldProfile`. */
const DatasetFieldProfile = Type.Object({
  fieldPath: Type.String(),
  uniqueCount: Opt(Type.Integer()),
  uniqueProportion: Opt(Type.Number()),
  nullCount: Opt(Type.Integer()),
  nullProportion: Opt(Type.Number()),
  min: Opt(Type.String()),
  max: Opt(Type.String()),
  mean: Opt(Type.String()),
  median: Opt(Type.String()),
  stdev: Opt(Type.String()),
  quantiles: Opt(Type.Array(Type.Object({ quantile: Type.String(), value: Type.String() }))),
  distinctValueFrequencies: Opt(Type.Array(Type.Object({ value: Type.String(), frequency: Type.Integer() }))),
  histogram: Opt(Type.Object({ boundaries: Type.Array(Type.String()), heights: Type.Array(Type.Number()) })),
  sampleValues: Opt(Type.Array(Type.String())),
})

const datasetProfile: AspectSpec = {
  name: 'datasetProfile',
  record: 'com.linkedin.dataset.DatasetProfile',
  timeseries: true,
  schema: Type.Object({
    ...TimeseriesBase,
    rowCount: Opt(Type.Integer()),
    columnCount: Opt(Type.Integer()),
    fieldProfiles: Opt(Type.Array(DatasetFieldProfile)),
    sizeInBytes: Opt(Type.Integer()),
  }),
  searchable: [
    { path: 'rowCount', fieldName: 'rowCount', type: 'COUNT', hasValuesFieldName: 'hasRowCount' },
    { path: 'columnCount', fieldName: 'columnCount', type: 'COUNT', hasValuesFieldName: 'hasColumnCount' },
    { path: 'sizeInBytes', fieldName: 'sizeInBytes', type: 'COUNT', hasValuesFieldName: 'hasSizeInBytes' },
  ],
}

const datasetUsageStatistics: AspectSpec = {
  name: 'datasetUsageStatistics',
  record: 'com.linkedin.dataset.DatasetUsageStatistics',
  timeseries: true,
  schema: Type.Object({
    ...TimeseriesBase,
    uniqueUserCount: Opt(Type.Integer()),
    totalSqlQueries: Opt(Type.Integer()),
    topSqlQueries: Opt(Type.Array(Type.String())),
    userCounts: Opt(
      Type.Array(Type.Object({ user: UrnString(), count: Type.Integer(), userEmail: Opt(Type.String()) })),
    ),
    fieldCounts: Opt(Type.Array(Type.Object({ fieldPath: Type.String(), count: Type.Integer() }))),
  }),
}

const operation: AspectSpec = {
  name: 'operation',
  record: 'com.linkedin.common.Operation',
  timeseries: true,
  schema: Type.Object({
    ...TimeseriesBase,
    actor: Opt(UrnString()),
    operationType: Enum(['INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'DROP', 'CUSTOM', 'UNKNOWN']),
    customOperationType: Opt(Type.String()),
    numAffectedRows: Opt(Type.Integer()),
    affectedDatasets: Opt(Type.Array(UrnString())),
    sourceType: Opt(Enum(['DATA_PROCESS', 'DATA_PLATFORM'])),
    customProperties: Opt(StringMap),
    lastUpdatedTimestamp: Type.Integer(),
    queries: Opt(Type.Array(UrnString())),
  }),
  searchable: [{ path: 'lastUpdatedTimestamp', fieldName: 'lastOperationTime', type: 'DATETIME' }],
}

/** Assertion results and batch specs are large unions; unknown members are kept. */
const assertionRunEvent: AspectSpec = {
  name: 'assertionRunEvent',
  record: 'com.linkedin.assertion.AssertionRunEvent',
  timeseries: true,
  schema: open({
    ...TimeseriesBase,
    runId: Type.String(),
    asserteeUrn: UrnString(),
    status: Enum(['COMPLETE']),
    result: Opt(
      open({
        type: Enum(['INIT', 'SUCCESS', 'FAILURE', 'ERROR']),
        rowCount: Opt(Type.Integer()),
        missingCount: Opt(Type.Integer()),
        unexpectedCount: Opt(Type.Integer()),
        actualAggValue: Opt(Type.Number()),
        nativeResults: Opt(StringMap),
        externalUrl: Opt(Type.String()),
      }),
    ),
    runtimeContext: Opt(StringMap),
    batchSpec: Opt(
      open({
        customProperties: Opt(StringMap),
        nativeBatchId: Opt(Type.String()),
        query: Opt(Type.String()),
        limit: Opt(Type.Integer()),
      }),
    ),
    assertionUrn: UrnString(),
  }),
}

const dataProcessInstanceRunEvent: AspectSpec = {
  name: 'dataProcessInstanceRunEvent',
  record: 'com.linkedin.dataprocess.DataProcessInstanceRunEvent',
  timeseries: true,
  schema: Type.Object({
    ...TimeseriesBase,
    externalUrl: Opt(Type.String()),
    status: Enum(['STARTED', 'COMPLETE']),
    attempt: Opt(Type.Integer()),
    result: Opt(
      Type.Object({
        type: Enum(['SUCCESS', 'FAILURE', 'SKIPPED', 'UP_FOR_RETRY']),
        nativeResultType: Type.String(),
      }),
    ),
    durationMillis: Opt(Type.Integer()),
  }),
}

export const TIMESERIES_ASPECTS: readonly AspectSpec[] = [
  datasetProfile,
  datasetUsageStatistics,
  operation,
  assertionRunEvent,
  dataProcessInstanceRunEvent,
]
