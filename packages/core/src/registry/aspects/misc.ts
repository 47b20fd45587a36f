/** Platform, container, domain, assertion, query, post, test and ownership-type aspects. */
import { Type } from '@sinclair/typebox'
import { AuditStamp, Enum, Opt, StringMap, TimeStamp, UrnString } from '../schema-kit.js'
import { checkTestInfo } from '../test-definition.js'
import type { AspectSpec } from '../types.js'
import {
  AnyRecord,
  CUSTOM_PROPERTIES_SEARCH,
  customProperties,
  DESCRIPTION_SEARCH,
  EDITED_DESCRIPTION_SEARCH,
  EXTERNAL_URL_SEARCH,
  externalReference,
  FabricTypeEnum,
  nameSearch,
  open,
  SOURCE_TIMES_SEARCH,
} from './records.js'

const dataPlatformInfo: AspectSpec = {
  name: 'dataPlatformInfo',
  record: 'com.linkedin.dataplatform.DataPlatformInfo',
  schema: Type.Object({
    name: Type.String({ maxLength: 15 }),
    displayName: Opt(Type.String()),
    type: Enum([
      'FILE_SYSTEM',
      'KEY_VALUE_STORE',
      'MESSAGE_BROKER',
      'OBJECT_STORE',
      'OLAP_DATASTORE',
      'OTHERS',
      'QUERY_ENGINE',
      'RELATIONAL_DB',
      'SEARCH_ENGINE',
    ]),
    datasetNameDelimiter: Type.String(),
    logoUrl: Opt(Type.String()),
  }),
  searchable: [
    { path: 'name', fieldName: 'name', type: 'WORD_GRAM', autocomplete: false, boost: 10 },
    { path: 'displayName', fieldName: 'displayName', type: 'WORD_GRAM', autocomplete: true, boost: 10 },
  ],
}

const containerProperties: AspectSpec = {
  name: 'containerProperties',
  record: 'com.linkedin.container.ContainerProperties',
  schema: Type.Object({
    ...customProperties,
    ...externalReference,
    name: Type.String(),
    qualifiedName: Opt(Type.String()),
    description: Opt(Type.String()),
    created: Opt(TimeStamp),
    lastModified: Opt(TimeStamp),
    env: Opt(FabricTypeEnum),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    ...EXTERNAL_URL_SEARCH,
    nameSearch(),
    nameSearch('qualifiedName'),
    DESCRIPTION_SEARCH,
    ...SOURCE_TIMES_SEARCH,
    {
      path: 'env',
      fieldName: 'env',
      type: 'KEYWORD',
      addToFilters: true,
      filterName: 'Environment',
      queryByDefault: false,
    },
  ],
}

const editableContainerProperties: AspectSpec = {
  name: 'editableContainerProperties',
  record: 'com.linkedin.container.EditableContainerProperties',
  schema: Type.Object({ description: Opt(Type.String()) }),
  searchable: [EDITED_DESCRIPTION_SEARCH],
}

const domainProperties: AspectSpec = {
  name: 'domainProperties',
  record: 'com.linkedin.domain.DomainProperties',
  schema: Type.Object({
    name: Type.String(),
    description: Opt(Type.String()),
    created: Opt(AuditStamp),
    parentDomain: Opt(UrnString()),
  }),
  searchable: [
    nameSearch(),
    DESCRIPTION_SEARCH,
    { path: 'created/time', fieldName: 'createdTime', type: 'DATETIME', queryByDefault: false },
    { path: 'parentDomain', fieldName: 'parentDomain', type: 'URN', hasValuesFieldName: 'hasParentDomain' },
  ],
  relationships: [{ path: 'parentDomain', name: 'IsPartOf', entityTypes: ['domain'] }],
}

/** The assertion definitions (dataset, freshness, volume, SQL, field, schema, custom) are large; each is kept as given. */
const assertionInfo: AspectSpec = {
  name: 'assertionInfo',
  record: 'com.linkedin.assertion.AssertionInfo',
  schema: open({
    ...customProperties,
    ...externalReference,
    type: Enum(['DATASET', 'FRESHNESS', 'VOLUME', 'SQL', 'FIELD', 'DATA_SCHEMA', 'CUSTOM']),
    datasetAssertion: Opt(
      open({
        dataset: UrnString(),
        scope: Enum(['DATASET_COLUMN', 'DATASET_ROWS', 'DATASET_STORAGE_SIZE', 'DATASET_SCHEMA', 'UNKNOWN']),
        fields: Opt(Type.Array(UrnString())),
        aggregation: Opt(Type.String()),
        operator: Type.String(),
        parameters: Opt(AnyRecord),
        nativeType: Opt(Type.String()),
        nativeParameters: Opt(StringMap),
        logic: Opt(Type.String()),
      }),
    ),
    freshnessAssertion: Opt(open({ entity: UrnString() })),
    volumeAssertion: Opt(open({ entity: UrnString() })),
    sqlAssertion: Opt(open({ entity: UrnString() })),
    fieldAssertion: Opt(open({ entity: UrnString() })),
    schemaAssertion: Opt(open({ entity: UrnString() })),
    customAssertion: Opt(open({ entity: UrnString() })),
    source: Opt(AnyRecord),
    lastUpdated: Opt(AuditStamp),
    description: Opt(Type.String()),
    note: Opt(AnyRecord),
  }),
  searchable: [...CUSTOM_PROPERTIES_SEARCH, { path: 'description', fieldName: 'description', type: 'TEXT' }],
  relationships: [
    { path: 'datasetAssertion/dataset', name: 'Asserts', entityTypes: ['dataset'] },
    { path: 'datasetAssertion/fields/*', name: 'Asserts', entityTypes: ['schemaField'] },
    { path: 'freshnessAssertion/entity', name: 'Asserts', entityTypes: ['dataset', 'dataJob'] },
    { path: 'volumeAssertion/entity', name: 'Asserts', entityTypes: ['dataset'] },
    { path: 'sqlAssertion/entity', name: 'Asserts', entityTypes: ['dataset'] },
    { path: 'fieldAssertion/entity', name: 'Asserts', entityTypes: ['dataset'] },
    { path: 'schemaAssertion/entity', name: 'Asserts', entityTypes: ['dataset'] },
    { path: 'customAssertion/entity', name: 'Asserts', entityTypes: ['dataset'] },
  ],
}

const queryProperties: AspectSpec = {
  name: 'queryProperties',
  record: 'com.linkedin.query.QueryProperties',
  schema: Type.Object({
    ...customProperties,
    statement: Type.Object({ value: Type.String(), language: Opt(Enum(['SQL', 'UNKNOWN'])) }),
    source: Enum(['MANUAL', 'SYSTEM']),
    name: Opt(Type.String()),
    description: Opt(Type.String()),
    created: AuditStamp,
    lastModified: AuditStamp,
    origin: Opt(UrnString()),
  }),
  searchable: [
    ...CUSTOM_PROPERTIES_SEARCH,
    { path: 'source', fieldName: 'source', type: 'TEXT' },
    nameSearch(),
    { path: 'created/time', fieldName: 'createdAt', type: 'DATETIME', queryByDefault: false },
    { path: 'created/actor', fieldName: 'createdBy', type: 'URN' },
    { path: 'lastModified/time', fieldName: 'lastModifiedAt', type: 'DATETIME', queryByDefault: false },
    { path: 'lastModified/actor', fieldName: 'lastModifiedBy', type: 'URN' },
  ],
}

const querySubjects: AspectSpec = {
  name: 'querySubjects',
  record: 'com.linkedin.query.QuerySubjects',
  schema: Type.Object({ subjects: Type.Array(Type.Object({ entity: UrnString() })) }),
  searchable: [{ path: 'subjects/*/entity', fieldName: 'entities', type: 'URN' }],
}

const postInfo: AspectSpec = {
  name: 'postInfo',
  record: 'com.linkedin.post.PostInfo',
  schema: Type.Object({
    type: Enum(['HOME_PAGE_ANNOUNCEMENT', 'ENTITY_ANNOUNCEMENT']),
    content: Type.Object({
      title: Type.String(),
      type: Enum(['TEXT', 'LINK']),
      description: Opt(Type.String()),
      link: Opt(Type.String()),
      media: Opt(Type.Object({ type: Enum(['IMAGE']), location: Type.String() })),
    }),
    created: Type.Integer(),
    lastModified: Type.Integer(),
    auditStamp: Opt(AuditStamp),
    target: Opt(UrnString()),
  }),
  searchable: [
    { path: 'created', fieldName: 'created', type: 'COUNT' },
    { path: 'lastModified', fieldName: 'lastModified', type: 'COUNT' },
  ],
  relationships: [
    {
      path: 'target',
      name: 'PostTarget',
      entityTypes: ['dataset', 'schemaField', 'chart', 'dashboard', 'dataFlow', 'dataJob', 'dataProduct'],
    },
  ],
}

/** Test status, source and schedule records are kept as given. */
const testInfo: AspectSpec = {
  name: 'testInfo',
  record: 'com.linkedin.test.TestInfo',
  schema: open({
    name: Type.String(),
    category: Type.String(),
    description: Opt(Type.String()),
    definition: Type.Object({ type: Enum(['JSON']), json: Opt(Type.String()), md5: Opt(Type.String()) }),
    lastUpdatedTimestamp: Opt(Type.Integer()),
    created: Opt(AuditStamp),
    lastUpdated: Opt(AuditStamp),
    status: Opt(AnyRecord),
    source: Opt(AnyRecord),
    schedule: Opt(AnyRecord),
  }),
  check: checkTestInfo,
  searchable: [
    { path: 'name', fieldName: 'name', type: 'TEXT_PARTIAL' },
    { path: 'category', fieldName: 'category', type: 'KEYWORD', addToFilters: true },
    { path: 'description', fieldName: 'description', type: 'TEXT' },
    { path: 'lastUpdatedTimestamp', fieldName: 'lastUpdatedTimestamp', type: 'DATETIME' },
    { path: 'created/time', fieldName: 'createdTime', type: 'DATETIME' },
    { path: 'lastUpdated/time', fieldName: 'lastUpdatedTime', type: 'DATETIME' },
  ],
}

const ownershipTypeInfo: AspectSpec = {
  name: 'ownershipTypeInfo',
  record: 'com.linkedin.ownership.OwnershipTypeInfo',
  schema: Type.Object({
    name: Type.String(),
    description: Opt(Type.String()),
    created: AuditStamp,
    lastModified: AuditStamp,
  }),
  searchable: [
    { path: 'name', fieldName: 'name', type: 'TEXT_PARTIAL' },
    { path: 'description', fieldName: 'description', type: 'TEXT' },
    { path: 'created/time', fieldName: 'createdAt', type: 'DATETIME', queryByDefault: false },
    { path: 'lastModified/time', fieldName: 'lastModifiedAt', type: 'DATETIME', queryByDefault: false },
  ],
}

export const MISC_ASPECTS: readonly AspectSpec[] = [
  dataPlatformInfo,
  containerProperties,
  editableContainerProperties,
  domainProperties,
  assertionInfo,
  queryProperties,
  querySubjects,
  postInfo,
  testInfo,
  ownershipTypeInfo,
]
