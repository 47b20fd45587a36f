/**
 * What DataHub does in code rather than in its model, per entity type: the legacy snapshot
 * record (MCE ingest and `/entities` reads), the GraphQL `EntityType` symbol, and the default
 * browse path DataHub's `BrowsePathUtils` writes for a new entity. Everything else about an
 * entity type comes from the model file.
 */

const SNAPSHOT = 'com.linkedin.metadata.snapshot.'

/** The members of DataHub's `Snapshot` union, by entity type. */
export const SNAPSHOTS: Readonly<Record<string, string>> = {
  dataset: `${SNAPSHOT}DatasetSnapshot`,
  tag: `${SNAPSHOT}TagSnapshot`,
  corpuser: `${SNAPSHOT}CorpUserSnapshot`,
  corpGroup: `${SNAPSHOT}CorpGroupSnapshot`,
  chart: `${SNAPSHOT}ChartSnapshot`,
  dashboard: `${SNAPSHOT}DashboardSnapshot`,
  glossaryTerm: `${SNAPSHOT}GlossaryTermSnapshot`,
  glossaryNode: `${SNAPSHOT}GlossaryNodeSnapshot`,
  mlFeature: `${SNAPSHOT}MLFeatureSnapshot`,
  mlPrimaryKey: `${SNAPSHOT}MLPrimaryKeySnapshot`,
  mlFeatureTable: `${SNAPSHOT}MLFeatureTableSnapshot`,
  mlModel: `${SNAPSHOT}MLModelSnapshot`,
  mlModelGroup: `${SNAPSHOT}MLModelGroupSnapshot`,
  mlModelDeployment: `${SNAPSHOT}MLModelDeploymentSnapshot`,
  dataPlatform: `${SNAPSHOT}DataPlatformSnapshot`,
  dataFlow: `${SNAPSHOT}DataFlowSnapshot`,
  dataJob: `${SNAPSHOT}DataJobSnapshot`,
  dataProcess: `${SNAPSHOT}DataProcessSnapshot`,
  dataHubPolicy: `${SNAPSHOT}DataHubPolicySnapshot`,
  dataHubRetention: `${SNAPSHOT}DataHubRetentionSnapshot`,
  schemaField: `${SNAPSHOT}SchemaFieldSnapshot`,
}

/** GraphQL `EntityType` symbols that the upper-snake-case of the entity name does not give. */
const GRAPHQL_TYPES: Readonly<Record<string, string>> = {
  corpuser: 'CORP_USER',
  mlModel: 'MLMODEL',
  mlModelGroup: 'MLMODEL_GROUP',
  mlFeatureTable: 'MLFEATURE_TABLE',
  mlFeature: 'MLFEATURE',
  mlPrimaryKey: 'MLPRIMARY_KEY',
  dataHubIngestionSource: 'INGESTION_SOURCE',
  dataHubExecutionRequest: 'EXECUTION_REQUEST',
  dataHubAccessToken: 'ACCESS_TOKEN',
  dataHubPolicy: 'DATAHUB_POLICY',
  dataHubRole: 'DATAHUB_ROLE',
  dataHubView: 'DATAHUB_VIEW',
  dataHubConnection: 'DATAHUB_CONNECTION',
  dataHubPageTemplate: 'DATAHUB_PAGE_TEMPLATE',
  dataHubPageModule: 'DATAHUB_PAGE_MODULE',
  dataHubFile: 'DATAHUB_FILE',
  ownershipType: 'CUSTOM_OWNERSHIP_TYPE',
  erModelRelationship: 'ER_MODEL_RELATIONSHIP',
}

/** The GraphQL `EntityType` of DataHub's schema, when it has one. */
export function graphqlTypeOf(entity: string, known: ReadonlySet<string>): string | undefined {
  const mapped = GRAPHQL_TYPES[entity] ?? entity.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()
  return known.has(mapped) ? mapped : undefined
}

/** DataHub's GraphQL `EntityType` symbols (schema.graphql). */
export const GRAPHQL_ENTITY_TYPES: ReadonlySet<string> = new Set(
  `DOMAIN DATASET CORP_USER CORP_GROUP DATA_PLATFORM ER_MODEL_RELATIONSHIP DASHBOARD NOTEBOOK CHART DATA_FLOW
  DATA_JOB TAG GLOSSARY_TERM GLOSSARY_NODE CONTAINER MLMODEL MLMODEL_GROUP MLFEATURE_TABLE MLFEATURE MLPRIMARY_KEY
  INGESTION_SOURCE EXECUTION_REQUEST ASSERTION DATA_PROCESS_INSTANCE DATA_PLATFORM_INSTANCE ACCESS_TOKEN TEST
  DATAHUB_POLICY DATAHUB_ROLE POST SCHEMA_FIELD DATAHUB_VIEW QUERY DATA_PRODUCT CUSTOM_OWNERSHIP_TYPE
  DATAHUB_CONNECTION INCIDENT ROLE DATA_CONTRACT STRUCTURED_PROPERTY FORM DATA_TYPE ENTITY_TYPE BUSINESS_ATTRIBUTE
  VERSION_SET APPLICATION DOCUMENT DATAHUB_PAGE_TEMPLATE DATAHUB_PAGE_MODULE DATAHUB_FILE METRIC SEMANTIC_MODEL`.split(
    /\s+/,
  ),
)

type Key = Readonly<Record<string, string>>

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

/** DataHub's `BrowsePathUtils.getDefaultBrowsePath`, by entity type. */
export const DEFAULT_BROWSE_PATHS: Readonly<Record<string, (k: Key) => string>> = {
  dataset: (k) => `/${k.origin}/${platformName(k.platform ?? '')}${datasetPath(k.name ?? '')}`.toLowerCase(),
  chart: (k) => `/${k.dashboardTool}`,
  dashboard: (k) => `/${k.dashboardTool}`.toLowerCase(),
  dataFlow: (k) => `/${k.orchestrator}/${k.cluster}`.toLowerCase(),
  dataJob: (k) => {
    const flow = flowParts(k.flow ?? '')
    return `/${flow.orchestrator}/${flow.cluster}`.toLowerCase()
  },
}

/** The kinds of `assertionInfo` that name the entity they assert on as their `entity`. */
const ASSERTION_KINDS = [
  'freshnessAssertion',
  'volumeAssertion',
  'sqlAssertion',
  'fieldAssertion',
  'schemaAssertion',
  'customAssertion',
]

/**
 * The entity an assertion asserts on, from its `assertionInfo` (DataHub's
 * `AssertionUtils.getEntityFromAssertionInfo`): `entityUrn` when stored, else the dataset of a
 * dataset assertion, else the `entity` of its kind; undefined when it names none.
 */
export function assertionAssertee(info: Readonly<Record<string, unknown>> | undefined): string | undefined {
  if (!info) return undefined
  const member = (v: unknown, key: string): unknown =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined
  const found = [info.entityUrn, member(info.datasetAssertion, 'dataset')].concat(
    ASSERTION_KINDS.map((kind) => member(info[kind], 'entity')),
  )
  return found.find((u): u is string => typeof u === 'string')
}
