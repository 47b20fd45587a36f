import { FABRIC_TYPES } from './schema-kit.js'
import type { EntitySpec, KeyFieldSpec, SearchableField } from './types.js'

const SNAPSHOT = 'com.linkedin.metadata.snapshot.'
const str = (name: string): KeyFieldSpec => ({ name })
const urnOf = (name: string, entityType: string): KeyFieldSpec => ({ name, urnOf: entityType })
const origin: KeyFieldSpec = { name: 'origin', enum: FABRIC_TYPES }
const platform = urnOf('platform', 'dataPlatform')

/** Aspects most entities carry (DataHub's common aspects). */
const COMMON = [
  'ownership',
  'status',
  'globalTags',
  'glossaryTerms',
  'institutionalMemory',
  'deprecation',
] as const
const DISCOVERY = [
  'browsePaths',
  'browsePathsV2',
  'dataPlatformInstance',
  'domains',
  'container',
  'subTypes',
] as const
const TESTED = ['testResults', 'structuredProperties', 'forms'] as const

const idText = (fieldName: string, boost = 10): SearchableField => ({
  path: fieldName === 'id' ? 'name' : fieldName,
  fieldName,
  type: 'WORD_GRAM',
  autocomplete: true,
  boost,
})

const platformName = (platformUrn: string) => platformUrn.slice(platformUrn.lastIndexOf(':') + 1)
const datasetPath = (name: string, delimiter = '.') => {
  const parts = name.split(delimiter)
  if (parts.length < 2) return ''
  const path = parts.slice(0, -1).join('/')
  return path.startsWith('/') ? path : `/${path}`
}
/** `urn:li:dataFlow:(orchestrator,flowId,cluster)` members, for a data job's browse path. */
const flowParts = (flowUrn: string) => {
  const inner = flowUrn.slice(flowUrn.indexOf('(') + 1, -1).split(',')
  return { orchestrator: inner[0] ?? '', cluster: inner[inner.length - 1] ?? '' }
}

/**
 * Every entity type the catalog knows: URN shape (key members in tuple order), key aspect,
 * aspects, snapshot record and default browse path, as in DataHub's entity registry.
 */
export const ENTITIES: readonly EntitySpec[] = [
  {
    name: 'dataset',
    keyAspect: 'datasetKey',
    keyFields: [platform, str('name'), origin],
    snapshot: `${SNAPSHOT}DatasetSnapshot`,
    graphqlType: 'DATASET',
    aspects: [
      ...COMMON,
      ...DISCOVERY,
      ...TESTED,
      'datasetProperties',
      'editableDatasetProperties',
      'schemaMetadata',
      'editableSchemaMetadata',
      'upstreamLineage',
      'datasetDeprecation',
      'viewProperties',
      'siblings',
      'embed',
      'access',
      'datasetProfile',
      'datasetUsageStatistics',
      'operation',
    ],
    defaultBrowsePath: (k) =>
      `/${k.origin}/${platformName(k.platform ?? '')}${datasetPath(k.name ?? '')}`.toLowerCase(),
    keySearchable: [
      {
        path: 'platform',
        fieldName: 'platform',
        type: 'URN',
        autocomplete: true,
        addToFilters: true,
        filterName: 'Platform',
      },
      idText('id'),
      {
        path: 'origin',
        fieldName: 'origin',
        type: 'TEXT_PARTIAL',
        queryByDefault: false,
        addToFilters: true,
        filterName: 'Environment',
      },
    ],
  },
  {
    name: 'tag',
    keyAspect: 'tagKey',
    keyFields: [str('name')],
    snapshot: `${SNAPSHOT}TagSnapshot`,
    graphqlType: 'TAG',
    aspects: ['tagProperties', 'ownership', 'status', 'deprecation', ...TESTED],
    keySearchable: [idText('id')],
  },
  {
    name: 'corpuser',
    keyAspect: 'corpUserKey',
    keyFields: [str('username')],
    snapshot: `${SNAPSHOT}CorpUserSnapshot`,
    graphqlType: 'CORP_USER',
    aspects: [
      'corpUserInfo',
      'corpUserEditableInfo',
      'corpUserStatus',
      'corpUserCredentials',
      'corpUserSettings',
      'groupMembership',
      'nativeGroupMembership',
      'roleMembership',
      'origin',
      'status',
      'globalTags',
      ...TESTED,
    ],
    keySearchable: [
      { path: 'username', fieldName: 'ldap', type: 'TEXT_PARTIAL', autocomplete: true, boost: 2 },
    ],
  },
  {
    name: 'corpGroup',
    keyAspect: 'corpGroupKey',
    keyFields: [str('name')],
    snapshot: `${SNAPSHOT}CorpGroupSnapshot`,
    graphqlType: 'CORP_GROUP',
    aspects: [
      'corpGroupInfo',
      'corpGroupEditableInfo',
      'ownership',
      'status',
      'globalTags',
      'origin',
      ...TESTED,
    ],
    keySearchable: [{ path: 'name', fieldName: 'name', type: 'TEXT_PARTIAL', autocomplete: true, boost: 10 }],
  },
  {
    name: 'chart',
    keyAspect: 'chartKey',
    keyFields: [str('dashboardTool'), str('chartId')],
    snapshot: `${SNAPSHOT}ChartSnapshot`,
    graphqlType: 'CHART',
    aspects: [
      ...COMMON,
      ...DISCOVERY,
      ...TESTED,
      'chartInfo',
      'editableChartProperties',
      'chartQuery',
      'inputFields',
      'embed',
    ],
    defaultBrowsePath: (k) => `/${k.dashboardTool}`,
    keySearchable: [{ path: 'dashboardTool', fieldName: 'tool', type: 'TEXT_PARTIAL', boost: 4 }],
  },
  {
    name: 'dashboard',
    keyAspect: 'dashboardKey',
    keyFields: [str('dashboardTool'), str('dashboardId')],
    snapshot: `${SNAPSHOT}DashboardSnapshot`,
    graphqlType: 'DASHBOARD',
    aspects: [
      ...COMMON,
      ...DISCOVERY,
      ...TESTED,
      'dashboardInfo',
      'editableDashboardProperties',
      'inputFields',
      'embed',
    ],
    defaultBrowsePath: (k) => `/${k.dashboardTool}`.toLowerCase(),
    keySearchable: [{ path: 'dashboardTool', fieldName: 'tool', type: 'TEXT_PARTIAL', boost: 4 }],
  },
  {
    name: 'glossaryTerm',
    keyAspect: 'glossaryTermKey',
    keyFields: [str('name')],
    snapshot: `${SNAPSHOT}GlossaryTermSnapshot`,
    graphqlType: 'GLOSSARY_TERM',
    aspects: [
      'glossaryTermInfo',
      'glossaryRelatedTerms',
      'ownership',
      'status',
      'deprecation',
      'institutionalMemory',
      'browsePaths',
      'domains',
      ...TESTED,
    ],
    keySearchable: [idText('id')],
  },
  {
    name: 'glossaryNode',
    keyAspect: 'glossaryNodeKey',
    keyFields: [str('name')],
    snapshot: `${SNAPSHOT}GlossaryNodeSnapshot`,
    graphqlType: 'GLOSSARY_NODE',
    aspects: ['glossaryNodeInfo', 'ownership', 'status', 'institutionalMemory', ...TESTED],
    keySearchable: [idText('id')],
  },
  {
    name: 'mlFeature',
    keyAspect: 'mlFeatureKey',
    keyFields: [str('featureNamespace'), str('name')],
    snapshot: `${SNAPSHOT}MLFeatureSnapshot`,
    graphqlType: 'MLFEATURE',
    aspects: [...COMMON, ...DISCOVERY, ...TESTED, 'mlFeatureProperties', 'editableMlFeatureProperties'],
    keySearchable: [
      {
        path: 'featureNamespace',
        fieldName: 'featureNamespace',
        type: 'TEXT_PARTIAL',
        addToFilters: true,
        filterName: 'Feature Namespace',
      },
      { path: 'name', fieldName: 'name', type: 'WORD_GRAM', autocomplete: true, boost: 8 },
    ],
  },
  {
    name: 'mlPrimaryKey',
    keyAspect: 'mlPrimaryKeyKey',
    keyFields: [str('featureNamespace'), str('name')],
    snapshot: `${SNAPSHOT}MLPrimaryKeySnapshot`,
    graphqlType: 'MLPRIMARY_KEY',
    aspects: [...COMMON, ...DISCOVERY, ...TESTED, 'mlPrimaryKeyProperties', 'editableMlPrimaryKeyProperties'],
    keySearchable: [
      {
        path: 'featureNamespace',
        fieldName: 'featureNamespace',
        type: 'TEXT_PARTIAL',
        addToFilters: true,
        filterName: 'Feature Namespace',
      },
      { path: 'name', fieldName: 'name', type: 'WORD_GRAM', autocomplete: true, boost: 8 },
    ],
  },
  {
    name: 'mlFeatureTable',
    keyAspect: 'mlFeatureTableKey',
    keyFields: [platform, str('name')],
    snapshot: `${SNAPSHOT}MLFeatureTableSnapshot`,
    graphqlType: 'MLFEATURE_TABLE',
    aspects: [
      ...COMMON,
      ...DISCOVERY,
      ...TESTED,
      'mlFeatureTableProperties',
      'editableMlFeatureTableProperties',
    ],
    keySearchable: [
      { path: 'platform', fieldName: 'platform', type: 'URN', addToFilters: true, filterName: 'Platform' },
      { path: 'name', fieldName: 'name', type: 'WORD_GRAM', autocomplete: true, boost: 8 },
    ],
    keyRelationships: [{ path: 'platform', name: 'SourcePlatform', entityTypes: ['dataPlatform'] }],
  },
  {
    name: 'mlModel',
    keyAspect: 'mlModelKey',
    keyFields: [platform, str('name'), origin],
    snapshot: `${SNAPSHOT}MLModelSnapshot`,
    graphqlType: 'MLMODEL',
    aspects: [
      ...COMMON,
      ...DISCOVERY,
      ...TESTED,
      'mlModelProperties',
      'editableMlModelProperties',
      'intendedUse',
      'mlModelFactorPrompts',
      'mlModelMetrics',
      'mlModelEvaluationData',
      'mlModelTrainingData',
      'mlModelQuantitativeAnalyses',
      'mlModelEthicalConsiderations',
      'mlModelCaveatsAndRecommendations',
      'sourceCode',
      'cost',
    ],
    keySearchable: [
      { path: 'platform', fieldName: 'platform', type: 'URN', addToFilters: true, filterName: 'Platform' },
      idText('id'),
      {
        path: 'origin',
        fieldName: 'origin',
        type: 'TEXT_PARTIAL',
        queryByDefault: false,
        addToFilters: true,
        filterName: 'Environment',
      },
    ],
  },
  {
    name: 'mlModelGroup',
    keyAspect: 'mlModelGroupKey',
    keyFields: [platform, str('name'), origin],
    snapshot: `${SNAPSHOT}MLModelGroupSnapshot`,
    graphqlType: 'MLMODEL_GROUP',
    aspects: [...COMMON, ...DISCOVERY, ...TESTED, 'mlModelGroupProperties', 'editableMlModelGroupProperties'],
    keySearchable: [
      { path: 'platform', fieldName: 'platform', type: 'URN', addToFilters: true, filterName: 'Platform' },
      idText('id'),
      { path: 'origin', fieldName: 'origin', type: 'TEXT_PARTIAL', queryByDefault: false },
    ],
  },
  {
    name: 'mlModelDeployment',
    keyAspect: 'mlModelDeploymentKey',
    keyFields: [platform, str('name'), origin],
    snapshot: `${SNAPSHOT}MLModelDeploymentSnapshot`,
    aspects: [...COMMON, 'mlModelDeploymentProperties', 'dataPlatformInstance', ...TESTED],
    keySearchable: [
      { path: 'platform', fieldName: 'platform', type: 'URN', addToFilters: true, filterName: 'Platform' },
      idText('id'),
      { path: 'origin', fieldName: 'origin', type: 'TEXT_PARTIAL', queryByDefault: false },
    ],
  },
  {
    name: 'dataPlatform',
    keyAspect: 'dataPlatformKey',
    keyFields: [str('platformName')],
    snapshot: `${SNAPSHOT}DataPlatformSnapshot`,
    graphqlType: 'DATA_PLATFORM',
    aspects: ['dataPlatformInfo'],
    keySearchable: [
      { path: 'platformName', fieldName: 'platformName', type: 'TEXT_PARTIAL', autocomplete: true },
    ],
  },
  {
    name: 'dataFlow',
    keyAspect: 'dataFlowKey',
    keyFields: [str('orchestrator'), str('flowId'), str('cluster')],
    snapshot: `${SNAPSHOT}DataFlowSnapshot`,
    graphqlType: 'DATA_FLOW',
    aspects: [...COMMON, ...DISCOVERY, ...TESTED, 'dataFlowInfo', 'editableDataFlowProperties'],
    defaultBrowsePath: (k) => `/${k.orchestrator}/${k.cluster}`.toLowerCase(),
    keySearchable: [
      { path: 'orchestrator', fieldName: 'orchestrator', type: 'TEXT_PARTIAL' },
      { path: 'flowId', fieldName: 'id', type: 'TEXT_PARTIAL', boost: 8 },
      { path: 'cluster', fieldName: 'cluster', type: 'TEXT_PARTIAL', queryByDefault: false },
    ],
  },
  {
    name: 'dataJob',
    keyAspect: 'dataJobKey',
    keyFields: [urnOf('flow', 'dataFlow'), str('jobId')],
    snapshot: `${SNAPSHOT}DataJobSnapshot`,
    graphqlType: 'DATA_JOB',
    aspects: [
      ...COMMON,
      ...DISCOVERY,
      ...TESTED,
      'dataJobInfo',
      'dataJobInputOutput',
      'editableDataJobProperties',
    ],
    defaultBrowsePath: (k) => {
      const flow = flowParts(k.flow ?? '')
      return `/${flow.orchestrator}/${flow.cluster}`.toLowerCase()
    },
    keySearchable: [{ path: 'jobId', fieldName: 'id', type: 'TEXT_PARTIAL', boost: 8 }],
    keyRelationships: [{ path: 'flow', name: 'IsPartOf', entityTypes: ['dataFlow'] }],
  },
  {
    name: 'container',
    keyAspect: 'containerKey',
    keyFields: [str('guid')],
    graphqlType: 'CONTAINER',
    aspects: [...COMMON, ...DISCOVERY, ...TESTED, 'containerProperties', 'editableContainerProperties'],
  },
  {
    name: 'domain',
    keyAspect: 'domainKey',
    keyFields: [str('id')],
    graphqlType: 'DOMAIN',
    aspects: ['domainProperties', 'ownership', 'institutionalMemory', 'status', ...TESTED],
  },
  {
    name: 'assertion',
    keyAspect: 'assertionKey',
    keyFields: [str('assertionId')],
    graphqlType: 'ASSERTION',
    aspects: ['assertionInfo', 'assertionRunEvent', 'dataPlatformInstance', 'status', 'globalTags'],
  },
  {
    name: 'query',
    keyAspect: 'queryKey',
    keyFields: [str('id')],
    graphqlType: 'QUERY',
    aspects: ['queryProperties', 'querySubjects', 'status', 'dataPlatformInstance'],
  },
  {
    name: 'post',
    keyAspect: 'postKey',
    keyFields: [str('id')],
    graphqlType: 'POST',
    aspects: ['postInfo'],
  },
  {
    name: 'test',
    keyAspect: 'testKey',
    keyFields: [str('id')],
    graphqlType: 'TEST',
    aspects: ['testInfo', 'status'],
  },
  {
    name: 'schemaField',
    keyAspect: 'schemaFieldKey',
    keyFields: [urnOf('parent', 'dataset'), str('fieldPath')],
    graphqlType: 'SCHEMA_FIELD',
    aspects: ['deprecation', 'globalTags', 'glossaryTerms', 'status', 'documentation', ...TESTED],
  },
  {
    name: 'dataProcessInstance',
    keyAspect: 'dataProcessInstanceKey',
    keyFields: [str('id')],
    graphqlType: 'DATA_PROCESS_INSTANCE',
    aspects: [
      'dataProcessInstanceProperties',
      'dataProcessInstanceInput',
      'dataProcessInstanceOutput',
      'dataProcessInstanceRelationships',
      'dataProcessInstanceRunEvent',
      'dataPlatformInstance',
      'subTypes',
      'container',
      'status',
    ],
  },
  {
    name: 'ownershipType',
    keyAspect: 'ownershipTypeKey',
    keyFields: [str('id')],
    aspects: ['ownershipTypeInfo', 'status'],
  },
  {
    name: 'dataHubAccessToken',
    keyAspect: 'dataHubAccessTokenKey',
    keyFields: [str('id')],
    graphqlType: 'ACCESS_TOKEN',
    aspects: ['dataHubAccessTokenInfo'],
  },
]
