/** Chart and dashboard aspects (`com.linkedin.chart.*`, `com.linkedin.dashboard.*`, input fields). */
import { Type } from '@sinclair/typebox'
import { ChangeAuditStamps, Edge, Enum, Opt, Union, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import {
  CUSTOM_PROPERTIES_SEARCH,
  customProperties,
  EDITED_DESCRIPTION_SEARCH,
  EXTERNAL_URL_SEARCH,
  externalReference,
} from './records.js'
import { SchemaField } from './schema.js'

const ACCESS_LEVELS = ['PUBLIC', 'PRIVATE']
/** `com.linkedin.chart.ChartType` symbols. */
export const CHART_TYPES = [
  'BAR',
  'PIE',
  'SCATTER',
  'TABLE',
  'TEXT',
  'LINE',
  'AREA',
  'HISTOGRAM',
  'BOX_PLOT',
  'WORD_CLOUD',
  'COHORT',
]

const accessSearch = {
  path: 'access',
  fieldName: 'access',
  type: 'KEYWORD',
  addToFilters: true,
  filterName: 'Access Level',
} as const

/** `inputs` is `array[ChartDataSourceType]`, a union of DatasetUrn keyed `string`. */
const chartInputs = Type.Array(Union('ChartDataSourceType: {"string": "<dataset urn>"}'))

const chartInfo: AspectSpec = {
  name: 'chartInfo',
  record: 'com.linkedin.chart.ChartInfo',
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    title: Type.String(),
    description: Type.String(),
    lastModified: ChangeAuditStamps,
    chartUrl: Opt(Type.String()),
    /** Deprecated: use `inputEdges`. */
    inputs: Opt(chartInputs),
    inputEdges: Opt(Type.Array(Edge)),
    type: Opt(Enum(CHART_TYPES)),
    access: Opt(Enum(ACCESS_LEVELS)),
    lastRefreshed: Opt(Type.Integer()),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    { path: 'title', fieldName: 'title', type: 'WORD_GRAM', autocomplete: true, boost: 10 },
    { path: 'description', fieldName: 'description', type: 'TEXT' },
    { path: 'chartUrl', fieldName: 'chartUrl', type: 'KEYWORD', queryByDefault: false },
    { path: 'type', fieldName: 'type', type: 'KEYWORD', addToFilters: true, filterName: 'Chart Type' },
    accessSearch,
  ],
  relationships: [
    { path: 'inputs/*/string', name: 'Consumes', entityTypes: ['dataset'], isLineage: true },
    {
      path: 'inputEdges/*/destinationUrn',
      name: 'Consumes',
      entityTypes: ['dataset', 'chart'],
      isLineage: true,
    },
  ],
}

const editableChartProperties: AspectSpec = {
  name: 'editableChartProperties',
  record: 'com.linkedin.chart.EditableChartProperties',
  schema: Type.Object({ ...ChangeAuditStamps.properties, description: Opt(Type.String()) }),
  searchable: [EDITED_DESCRIPTION_SEARCH],
}

const chartQuery: AspectSpec = {
  name: 'chartQuery',
  record: 'com.linkedin.chart.ChartQuery',
  schema: Type.Object({ rawQuery: Type.String(), type: Enum(['LOOKML', 'SQL']) }),
  searchable: [
    { path: 'type', fieldName: 'queryType', type: 'KEYWORD', addToFilters: true, filterName: 'Query Type' },
  ],
}

const inputFields: AspectSpec = {
  name: 'inputFields',
  record: 'com.linkedin.common.InputFields',
  schema: Type.Object({
    fields: Type.Array(Type.Object({ schemaFieldUrn: UrnString(), schemaField: Opt(SchemaField) })),
  }),
  relationships: [{ path: 'fields/*/schemaFieldUrn', name: 'consumesField', entityTypes: ['schemaField'] }],
}

const dashboardInfo: AspectSpec = {
  name: 'dashboardInfo',
  record: 'com.linkedin.dashboard.DashboardInfo',
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    title: Type.String(),
    description: Type.String(),
    /** Deprecated: use `chartEdges`. */
    charts: Opt(Type.Array(UrnString())),
    chartEdges: Opt(Type.Array(Edge)),
    /** Deprecated: use `datasetEdges`. */
    datasets: Opt(Type.Array(UrnString())),
    datasetEdges: Opt(Type.Array(Edge)),
    dashboards: Opt(Type.Array(Edge)),
    lastModified: ChangeAuditStamps,
    dashboardUrl: Opt(Type.String()),
    access: Opt(Enum(ACCESS_LEVELS)),
    lastRefreshed: Opt(Type.Integer()),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    { path: 'title', fieldName: 'title', type: 'WORD_GRAM', autocomplete: true, boost: 10 },
    { path: 'description', fieldName: 'description', type: 'TEXT', hasValuesFieldName: 'hasDescription' },
    {
      path: 'lastModified/lastModified/time',
      fieldName: 'lastModifiedAt',
      type: 'DATETIME',
      queryByDefault: false,
    },
    { path: 'dashboardUrl', fieldName: 'dashboardUrl', type: 'KEYWORD', queryByDefault: false },
    accessSearch,
  ],
  relationships: [
    { path: 'charts/*', name: 'Contains', entityTypes: ['chart'], isLineage: true },
    { path: 'chartEdges/*/destinationUrn', name: 'Contains', entityTypes: ['chart'], isLineage: true },
    { path: 'datasets/*', name: 'Consumes', entityTypes: ['dataset'], isLineage: true },
    { path: 'datasetEdges/*/destinationUrn', name: 'Consumes', entityTypes: ['dataset'], isLineage: true },
    {
      path: 'dashboards/*/destinationUrn',
      name: 'DashboardContainsDashboard',
      entityTypes: ['dashboard'],
      isLineage: true,
    },
  ],
}

const editableDashboardProperties: AspectSpec = {
  name: 'editableDashboardProperties',
  record: 'com.linkedin.dashboard.EditableDashboardProperties',
  schema: Type.Object({ ...ChangeAuditStamps.properties, description: Opt(Type.String()) }),
  searchable: [EDITED_DESCRIPTION_SEARCH],
}

export const CHART_DASHBOARD_ASPECTS: readonly AspectSpec[] = [
  chartInfo,
  editableChartProperties,
  chartQuery,
  inputFields,
  dashboardInfo,
  editableDashboardProperties,
]
