/** Data flow, data job and data process instance aspects (`com.linkedin.datajob.*`, `com.linkedin.dataprocess.*`). */
import { Type } from '@sinclair/typebox'
import { AuditStamp, ChangeAuditStamps, Edge, Enum, Opt, TimeStamp, Union, UrnString } from '../schema-kit.js'
import type { AspectSpec } from '../types.js'
import {
  CUSTOM_PROPERTIES_SEARCH,
  customProperties,
  DESCRIPTION_SEARCH,
  EDITED_DESCRIPTION_SEARCH,
  EXTERNAL_URL_SEARCH,
  externalReference,
  FabricTypeEnum,
  FineGrainedLineage,
  nameSearch,
  open,
  SOURCE_TIMES_SEARCH,
} from './records.js'

const envSearch = {
  path: 'env',
  fieldName: 'env',
  type: 'KEYWORD',
  addToFilters: true,
  filterName: 'Environment',
  queryByDefault: false,
} as const

const dataFlowInfo: AspectSpec = {
  name: 'dataFlowInfo',
  record: 'com.linkedin.datajob.DataFlowInfo',
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    name: Type.String(),
    description: Opt(Type.String()),
    project: Opt(Type.String()),
    created: Opt(TimeStamp),
    lastModified: Opt(TimeStamp),
    env: Opt(FabricTypeEnum),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    nameSearch(),
    DESCRIPTION_SEARCH,
    { path: 'project', fieldName: 'project', type: 'TEXT_PARTIAL', queryByDefault: false },
    ...SOURCE_TIMES_SEARCH,
    envSearch,
  ],
}

const editableDataFlowProperties: AspectSpec = {
  name: 'editableDataFlowProperties',
  record: 'com.linkedin.datajob.EditableDataFlowProperties',
  schema: Type.Object({ ...ChangeAuditStamps.properties, description: Opt(Type.String()) }),
  searchable: [EDITED_DESCRIPTION_SEARCH],
}

const dataJobInfo: AspectSpec = {
  name: 'dataJobInfo',
  record: 'com.linkedin.datajob.DataJobInfo',
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    name: Type.String(),
    description: Opt(Type.String()),
    /** `union[AzkabanJobType, string]`: `{"string": "SQL"}` or `{"com.linkedin.datajob.azkaban.AzkabanJobType": "COMMAND"}`. */
    type: Union('DataJob type: {"string": ...} or {"com.linkedin.datajob.azkaban.AzkabanJobType": ...}'),
    flowUrn: Opt(UrnString()),
    created: Opt(TimeStamp),
    lastModified: Opt(TimeStamp),
    /** Deprecated: use data process instances. */
    status: Opt(
      Enum(['STARTING', 'IN_PROGRESS', 'STOPPING', 'STOPPED', 'COMPLETED', 'FAILED', 'UNKNOWN', 'SKIPPED']),
    ),
    env: Opt(FabricTypeEnum),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    nameSearch(),
    DESCRIPTION_SEARCH,
    ...SOURCE_TIMES_SEARCH,
    envSearch,
  ],
}

/** A lineage URN list; DataHub also counts it (`numValuesFieldName`, e.g. `numInputDatasets`), which SearchableField does not model. */
const lineageSearch = (path: string, fieldName: string) =>
  ({ path, fieldName, type: 'URN', queryByDefault: false }) as const

const dataJobInputOutput: AspectSpec = {
  name: 'dataJobInputOutput',
  record: 'com.linkedin.datajob.DataJobInputOutput',
  schema: Type.Object({
    /** Deprecated: use `inputDatasetEdges`. */
    inputDatasets: Type.Array(UrnString()),
    inputDatasetEdges: Opt(Type.Array(Edge)),
    /** Deprecated: use `outputDatasetEdges`. */
    outputDatasets: Type.Array(UrnString()),
    outputDatasetEdges: Opt(Type.Array(Edge)),
    /** Deprecated: use `inputDatajobEdges`. */
    inputDatajobs: Opt(Type.Array(UrnString())),
    inputDatajobEdges: Opt(Type.Array(Edge)),
    inputDatasetFields: Opt(Type.Array(UrnString())),
    outputDatasetFields: Opt(Type.Array(UrnString())),
    fineGrainedLineages: Opt(Type.Array(FineGrainedLineage)),
  }),
  searchable: [
    lineageSearch('inputDatasets/*', 'inputs'),
    lineageSearch('inputDatasetEdges/*/destinationUrn', 'inputDatasetEdges'),
    lineageSearch('outputDatasets/*', 'outputs'),
    lineageSearch('outputDatasetEdges/*/destinationUrn', 'outputDatasetEdges'),
    lineageSearch('inputDatasetFields/*', 'inputFields'),
    lineageSearch('outputDatasetFields/*', 'outputFields'),
    {
      path: 'fineGrainedLineages/*/upstreams/*',
      fieldName: 'fineGrainedUpstreams',
      type: 'URN',
      queryByDefault: false,
      hasValuesFieldName: 'hasFineGrainedUpstreams',
    },
  ],
  relationships: [
    { path: 'inputDatasets/*', name: 'Consumes', entityTypes: ['dataset'], isLineage: true },
    {
      path: 'inputDatasetEdges/*/destinationUrn',
      name: 'Consumes',
      entityTypes: ['dataset'],
      isLineage: true,
    },
    {
      path: 'outputDatasets/*',
      name: 'Produces',
      entityTypes: ['dataset'],
      isLineage: true,
      isUpstream: false,
    },
    {
      path: 'outputDatasetEdges/*/destinationUrn',
      name: 'Produces',
      entityTypes: ['dataset'],
      isLineage: true,
      isUpstream: false,
    },
    { path: 'inputDatajobs/*', name: 'DownstreamOf', entityTypes: ['dataJob'], isLineage: true },
    {
      path: 'inputDatajobEdges/*/destinationUrn',
      name: 'DownstreamOf',
      entityTypes: ['dataJob'],
      isLineage: true,
    },
    { path: 'inputDatasetFields/*', name: 'Consumes', entityTypes: ['schemaField'] },
    { path: 'outputDatasetFields/*', name: 'Produces', entityTypes: ['schemaField'] },
  ],
}

const editableDataJobProperties: AspectSpec = {
  name: 'editableDataJobProperties',
  record: 'com.linkedin.datajob.EditableDataJobProperties',
  schema: Type.Object({ ...ChangeAuditStamps.properties, description: Opt(Type.String()) }),
  searchable: [EDITED_DESCRIPTION_SEARCH],
}

const dataProcessInstanceProperties: AspectSpec = {
  name: 'dataProcessInstanceProperties',
  record: 'com.linkedin.dataprocess.DataProcessInstanceProperties',
  schema: open({
    ...customProperties,
    ...externalReference,
    name: Type.String(),
    type: Opt(Enum(['BATCH_SCHEDULED', 'BATCH_AD_HOC', 'STREAMING'])),
    created: AuditStamp,
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    nameSearch(),
    { path: 'type', fieldName: 'type', type: 'KEYWORD', addToFilters: true },
    { path: 'created/time', fieldName: 'created', type: 'DATETIME', queryByDefault: false },
  ],
}

const dataProcessInstanceInput: AspectSpec = {
  name: 'dataProcessInstanceInput',
  record: 'com.linkedin.dataprocess.DataProcessInstanceInput',
  schema: open({ inputs: Type.Array(UrnString()), inputEdges: Opt(Type.Array(Edge)) }),
  searchable: [lineageSearch('inputs/*', 'inputs')],
  relationships: [
    { path: 'inputs/*', name: 'Consumes', entityTypes: ['dataset', 'mlModel'], isLineage: true },
    {
      path: 'inputEdges/*/destinationUrn',
      name: 'DataProcessInstanceConsumes',
      entityTypes: ['dataset', 'mlModel', 'dataProcessInstance'],
      isLineage: true,
    },
  ],
}

const dataProcessInstanceOutput: AspectSpec = {
  name: 'dataProcessInstanceOutput',
  record: 'com.linkedin.dataprocess.DataProcessInstanceOutput',
  schema: open({ outputs: Type.Array(UrnString()), outputEdges: Opt(Type.Array(Edge)) }),
  searchable: [lineageSearch('outputs/*', 'outputs')],
  relationships: [
    {
      path: 'outputs/*',
      name: 'Produces',
      entityTypes: ['dataset', 'mlModel'],
      isLineage: true,
      isUpstream: false,
    },
    {
      path: 'outputEdges/*/destinationUrn',
      name: 'DataProcessInstanceProduces',
      entityTypes: ['dataset', 'mlModel', 'dataProcessInstance'],
      isLineage: true,
      isUpstream: false,
    },
  ],
}

const dataProcessInstanceRelationships: AspectSpec = {
  name: 'dataProcessInstanceRelationships',
  record: 'com.linkedin.dataprocess.DataProcessInstanceRelationships',
  schema: open({
    parentTemplate: Opt(UrnString()),
    parentInstance: Opt(UrnString()),
    upstreamInstances: Type.Array(UrnString()),
  }),
  searchable: [
    { path: 'parentTemplate', fieldName: 'parentTemplate', type: 'URN', queryByDefault: false },
    { path: 'parentInstance', fieldName: 'parentInstance', type: 'URN', queryByDefault: false },
    { path: 'upstreamInstances/*', fieldName: 'upstream', type: 'URN', queryByDefault: false },
  ],
  relationships: [
    { path: 'parentTemplate', name: 'InstanceOf', entityTypes: ['dataJob', 'dataFlow', 'dataset'] },
    { path: 'parentInstance', name: 'ChildOf', entityTypes: ['dataProcessInstance'] },
    { path: 'upstreamInstances/*', name: 'UpstreamOf', entityTypes: ['dataProcessInstance'] },
  ],
}

export const DATAJOB_ASPECTS: readonly AspectSpec[] = [
  dataFlowInfo,
  editableDataFlowProperties,
  dataJobInfo,
  dataJobInputOutput,
  editableDataJobProperties,
  dataProcessInstanceProperties,
  dataProcessInstanceInput,
  dataProcessInstanceOutput,
  dataProcessInstanceRelationships,
]
