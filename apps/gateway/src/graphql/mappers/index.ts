import { APPLICATION_MAPPING } from './application.js'
import { ASSERTION_MAPPING } from './assertion.js'
import { withContext } from './associations.js'
import { BUSINESS_ATTRIBUTE_MAPPING } from './business-attribute.js'
import { CONNECTION_MAPPING } from './connection.js'
import {
  CONTAINER_MAPPING,
  DATA_PRODUCT_MAPPING,
  DOMAIN_MAPPING,
  GLOSSARY_NODE_MAPPING,
} from './containers.js'
import { DATA_CONTRACT_MAPPING } from './data-contract.js'
import { DATA_FLOW_MAPPING, DATA_JOB_MAPPING } from './data-process.js'
import { DATA_PROCESS_INSTANCE_MAPPING } from './data-process-instance.js'
import { DATASET_MAPPING } from './dataset.js'
import { DOCUMENT_MAPPING } from './document.js'
import {
  ACCESS_TOKEN_MAPPING,
  CHART_MAPPING,
  DASHBOARD_MAPPING,
  DATA_PLATFORM_MAPPING,
  GLOSSARY_TERM_MAPPING,
  OWNERSHIP_TYPE_MAPPING,
  TAG_MAPPING,
} from './entities.js'
import { ER_MODEL_MAPPING } from './er-model.js'
import { FORM_MAPPING } from './form.js'
import { CORP_GROUP_MAPPING, CORP_USER_MAPPING } from './identity.js'
import { INCIDENT_MAPPING } from './incident.js'
import { EXECUTION_REQUEST_MAPPING } from './ingestion.js'
import {
  ML_FEATURE_MAPPING,
  ML_FEATURE_TABLE_MAPPING,
  ML_MODEL_GROUP_MAPPING,
  ML_MODEL_MAPPING,
  ML_PRIMARY_KEY_MAPPING,
} from './ml.js'
import { NOTEBOOK_MAPPING } from './notebook.js'
import { PAGE_MODULE_MAPPING, PAGE_TEMPLATE_MAPPING } from './page-template.js'
import { DATA_PLATFORM_INSTANCE_MAPPING } from './platform-instance.js'
import { QUERY_MAPPING } from './query.js'
import { ROLE_MAPPING } from './role.js'
import { SCHEMA_FIELD_MAPPING } from './schema-field.js'
import { TEST_MAPPING } from './test.js'
import type { EntityMapping } from './types.js'
import { VERSION_SET_MAPPING } from './version-set.js'

/** Registry entity name -> its GraphQL mapping: every entity type the GraphQL API serves. */
export const MAPPINGS: ReadonlyMap<string, EntityMapping> = new Map(
  (
    [
      ['dataset', DATASET_MAPPING],
      ['tag', TAG_MAPPING],
      ['corpuser', CORP_USER_MAPPING],
      ['corpGroup', CORP_GROUP_MAPPING],
      ['chart', CHART_MAPPING],
      ['dashboard', DASHBOARD_MAPPING],
      ['glossaryTerm', GLOSSARY_TERM_MAPPING],
      ['dataPlatform', DATA_PLATFORM_MAPPING],
      ['dataPlatformInstance', DATA_PLATFORM_INSTANCE_MAPPING],
      ['ownershipType', OWNERSHIP_TYPE_MAPPING],
      ['dataHubAccessToken', ACCESS_TOKEN_MAPPING],
      ['mlFeature', ML_FEATURE_MAPPING],
      ['mlPrimaryKey', ML_PRIMARY_KEY_MAPPING],
      ['mlFeatureTable', ML_FEATURE_TABLE_MAPPING],
      ['mlModel', ML_MODEL_MAPPING],
      ['mlModelGroup', ML_MODEL_GROUP_MAPPING],
      ['dataFlow', DATA_FLOW_MAPPING],
      ['dataJob', DATA_JOB_MAPPING],
      ['container', CONTAINER_MAPPING],
      ['domain', DOMAIN_MAPPING],
      ['dataProduct', DATA_PRODUCT_MAPPING],
      ['glossaryNode', GLOSSARY_NODE_MAPPING],
      ['assertion', ASSERTION_MAPPING],
      ['query', QUERY_MAPPING],
      ['dataProcessInstance', DATA_PROCESS_INSTANCE_MAPPING],
      ['notebook', NOTEBOOK_MAPPING],
      ['incident', INCIDENT_MAPPING],
      ['test', TEST_MAPPING],
      ['dataHubExecutionRequest', EXECUTION_REQUEST_MAPPING],
      ['versionSet', VERSION_SET_MAPPING],
      ['dataContract', DATA_CONTRACT_MAPPING],
      ['role', ROLE_MAPPING],
      ['dataHubConnection', CONNECTION_MAPPING],
      ['businessAttribute', BUSINESS_ATTRIBUTE_MAPPING],
      ['schemaField', SCHEMA_FIELD_MAPPING],
      ['application', APPLICATION_MAPPING],
      ['form', FORM_MAPPING],
      ['erModelRelationship', ER_MODEL_MAPPING],
      ['dataHubPageTemplate', PAGE_TEMPLATE_MAPPING],
      ['dataHubPageModule', PAGE_MODULE_MAPPING],
      ['document', DOCUMENT_MAPPING],
    ] as const
  ).map(([name, mapping]) => [name, withContext(mapping)]),
)

export type { Mapped } from './common.js'
export type { EntityMapping, FieldContext, FieldFn } from './types.js'
