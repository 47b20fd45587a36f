/** Dataset aspects (`com.linkedin.dataset.*`) other than schema and time series. */
import { Type } from '@sinclair/typebox'
import { AuditStamp, ChangeAuditStamps, Enum, Opt, StringMap, TimeStamp, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import {
  CUSTOM_PROPERTIES_SEARCH,
  customProperties,
  DESCRIPTION_SEARCH,
  EXTERNAL_URL_SEARCH,
  externalReference,
  FineGrainedLineage,
  SOURCE_TIMES_SEARCH,
} from './records.js'

const datasetProperties: AspectSpec = {
  name: 'datasetProperties',
  record: 'com.linkedin.dataset.DatasetProperties',
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    name: Opt(Type.String()),
    qualifiedName: Opt(Type.String()),
    description: Opt(Type.String()),
    /** Deprecated: use `externalUrl`. */
    uri: Opt(Type.String()),
    created: Opt(TimeStamp),
    lastModified: Opt(TimeStamp),
    /** Deprecated: use the `globalTags` aspect. */
    tags: Opt(Type.Array(Type.String())),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    { path: 'name', fieldName: 'name', type: 'WORD_GRAM', autocomplete: true, boost: 10 },
    {
      path: 'qualifiedName',
      fieldName: 'qualifiedName',
      type: 'WORD_GRAM',
      autocomplete: true,
      boost: 10,
      addToFilters: false,
    },
    DESCRIPTION_SEARCH,
    ...SOURCE_TIMES_SEARCH,
  ],
}

const editableDatasetProperties: AspectSpec = {
  name: 'editableDatasetProperties',
  record: 'com.linkedin.dataset.EditableDatasetProperties',
  schema: Type.Object({
    ...ChangeAuditStamps.properties,
    description: Opt(Type.String()),
    name: Opt(Type.String()),
  }),
  searchable: [
    { path: 'description', fieldName: 'editedDescription', type: 'TEXT' },
    { path: 'name', fieldName: 'editedName', type: 'TEXT_PARTIAL' },
  ],
}

const upstream = Type.Object({
  auditStamp: Opt(AuditStamp),
  created: Opt(AuditStamp),
  dataset: UrnString(),
  type: Enum(['COPY', 'TRANSFORMED', 'VIEW']),
  properties: Opt(StringMap),
  query: Opt(UrnString()),
})

const upstreamLineage: AspectSpec = {
  name: 'upstreamLineage',
  record: 'com.linkedin.dataset.UpstreamLineage',
  schema: Type.Object({
    upstreams: Type.Array(upstream),
    fineGrainedLineages: Opt(Type.Array(FineGrainedLineage)),
  }),
  searchable: [
    {
      path: 'upstreams/*/dataset',
      fieldName: 'upstreams',
      type: 'URN',
      queryByDefault: false,
      hasValuesFieldName: 'hasUpstreams',
    },
    {
      path: 'fineGrainedLineages/*/upstreams/*',
      fieldName: 'fineGrainedUpstreams',
      type: 'URN',
      queryByDefault: false,
      hasValuesFieldName: 'hasFineGrainedUpstreams',
    },
  ],
  relationships: [
    { path: 'upstreams/*/dataset', name: 'DownstreamOf', entityTypes: ['dataset'], isLineage: true },
    {
      path: 'fineGrainedLineages/*/upstreams/*',
      name: 'DownstreamOf',
      entityTypes: ['dataset', 'schemaField'],
    },
  ],
}

/** Deprecated in DataHub in favour of `deprecation`. */
const datasetDeprecation: AspectSpec = {
  name: 'datasetDeprecation',
  record: 'com.linkedin.dataset.DatasetDeprecation',
  schema: Type.Object({
    deprecated: Type.Boolean(),
    decommissionTime: Opt(Type.Integer()),
    note: Type.String(),
    actor: Opt(UrnString()),
  }),
  searchable: [{ path: 'deprecated', fieldName: 'deprecated', type: 'BOOLEAN' }],
}

const viewProperties: AspectSpec = {
  name: 'viewProperties',
  record: 'com.linkedin.dataset.ViewProperties',
  schema: Type.Object({
    materialized: Type.Boolean(),
    viewLogic: Type.String(),
    formattedViewLogic: Opt(Type.String()),
    viewLanguage: Type.String(),
  }),
  searchable: [{ path: 'materialized', fieldName: 'materialized', type: 'BOOLEAN' }],
}

export const DATASET_ASPECTS: readonly AspectSpec[] = [
  datasetProperties,
  editableDatasetProperties,
  upstreamLineage,
  datasetDeprecation,
  viewProperties,
]
