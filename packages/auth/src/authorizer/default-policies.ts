import type { PolicyInfo } from './policy-types.js'

/**
 * DataHub's default policies and roles, as data: `metadata-service/war/src/main/resources/
 * boot/policies.json` and `roles.json`. They are stored as `dataHubPolicyInfo` and
 * `dataHubRoleInfo` aspects on first start when absent.
 */
const ADMIN_PLATFORM = [
  'MANAGE_POLICIES',
  'MANAGE_INGESTION',
  'MANAGE_SECRETS',
  'MANAGE_USERS_AND_GROUPS',
  'VIEW_ANALYTICS',
  'GENERATE_PERSONAL_ACCESS_TOKENS',
  'MANAGE_ACCESS_TOKENS',
  'MANAGE_DOMAINS',
  'MANAGE_GLOBAL_ANNOUNCEMENTS',
  'MANAGE_TESTS',
  'MANAGE_GLOSSARIES',
  'MANAGE_USER_CREDENTIALS',
  'MANAGE_TAGS',
  'MANAGE_GLOBAL_VIEWS',
  'RESTORE_INDICES_PRIVILEGE',
  'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE',
  'TRUNCATE_TIMESERIES_INDEX_PRIVILEGE',
  'GET_ES_TASK_STATUS_PRIVILEGE',
  'SET_WRITEABLE_PRIVILEGE',
  'APPLY_RETENTION_PRIVILEGE',
  'MANAGE_GLOBAL_OWNERSHIP_TYPES',
  'GET_ANALYTICS_PRIVILEGE',
  // Newer than the policies file above; DataHub's service-account documentation gives it to Admins.
  'MANAGE_SERVICE_ACCOUNTS',
]
const READS = [
  'SEARCH_PRIVILEGE',
  'GET_COUNTS_PRIVILEGE',
  'GET_TIMESERIES_ASPECT_PRIVILEGE',
  'GET_ENTITY_PRIVILEGE',
  'GET_TIMELINE_PRIVILEGE',
]
const EDITS = [
  'EDIT_ENTITY_TAGS',
  'EDIT_ENTITY_GLOSSARY_TERMS',
  'EDIT_ENTITY_OWNERS',
  'EDIT_ENTITY_DOCS',
  'EDIT_ENTITY_DOC_LINKS',
  'EDIT_ENTITY_STATUS',
  'EDIT_DOMAINS_PRIVILEGE',
  'EDIT_ENTITY_DATA_PRODUCTS',
  'EDIT_DEPRECATION_PRIVILEGE',
  'EDIT_ENTITY_ASSERTIONS',
  'EDIT_ENTITY',
  'EDIT_DATASET_COL_TAGS',
  'EDIT_DATASET_COL_GLOSSARY_TERMS',
  'EDIT_DATASET_COL_DESCRIPTION',
  'VIEW_DATASET_USAGE',
  'VIEW_DATASET_PROFILE',
  'EDIT_TAG_COLOR',
  'EDIT_GROUP_MEMBERS',
  'EDIT_USER_PROFILE',
  'EDIT_CONTACT_INFO',
  'EDIT_LINEAGE',
  'EDIT_ENTITY_QUERIES',
]
const EDITOR_EDITS = EDITS.filter(
  (p) =>
    ![
      'EDIT_ENTITY_OWNERS',
      'EDIT_ENTITY',
      'EDIT_GROUP_MEMBERS',
      'EDIT_USER_PROFILE',
      'EDIT_CONTACT_INFO',
    ].includes(p),
)
const none = { resourceOwners: false, allUsers: false, allGroups: false, users: [] as string[] }
const root = { ...none, users: ['urn:li:corpuser:datahub'] }
const allUsers = { ...none, allUsers: true }
const role = (name: string) => ({ ...none, groups: [] as string[], roles: [`urn:li:dataHubRole:${name}`] })

function policy(
  id: string,
  type: 'PLATFORM' | 'METADATA',
  actors: PolicyInfo['actors'],
  privileges: readonly string[],
  displayName: string,
  description: string,
  editable: boolean,
  resources?: PolicyInfo['resources'],
): { urn: string; info: PolicyInfo } {
  return {
    urn: `urn:li:dataHubPolicy:${id}`,
    info: {
      actors,
      privileges: [...privileges],
      displayName,
      description,
      state: 'ACTIVE',
      type,
      editable,
      ...(resources ? { resources } : {}),
    },
  }
}

export const DEFAULT_POLICIES: readonly { urn: string; info: PolicyInfo }[] = [
  policy(
    '0',
    'PLATFORM',
    root,
    ADMIN_PLATFORM,
    'Root User - All Platform Privileges',
    'Grants all platform privileges to root user.',
    false,
  ),
  policy(
    '1',
    'METADATA',
    root,
    [
      'EDIT_ENTITY',
      'VIEW_ENTITY_PAGE',
      'EDIT_LINEAGE',
      'EDIT_ENTITY_ASSERTIONS',
      ...READS,
      'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
      'MANAGE_DATA_PRODUCTS',
      'MANAGE_GLOBAL_OWNERSHIP_TYPES',
      'DELETE_ENTITY',
    ],
    'Root User - Edit and View All Resources',
    'Grants all edit and view privileges for all resources to root user.',
    false,
  ),
  policy(
    '7',
    'PLATFORM',
    allUsers,
    ['VIEW_ANALYTICS', 'GENERATE_PERSONAL_ACCESS_TOKENS'],
    'All Users - Base Platform Privileges',
    'Grants base platform privileges to ALL users of DataHub. Change this policy to alter that behavior.',
    true,
  ),
  policy(
    'view-entity-page-all',
    'METADATA',
    allUsers,
    ['VIEW_ENTITY_PAGE', ...READS],
    'All Users - View Entity Page',
    'Grants entity view to all users',
    true,
  ),
  policy(
    'view-dataset-sensitive',
    'METADATA',
    allUsers,
    ['VIEW_DATASET_USAGE', 'VIEW_DATASET_PROFILE'],
    'All Users - View Dataset Sensitive Information',
    'Grants viewing privileges of usage and profile information of all datasets for all users',
    true,
  ),
  policy(
    'admin-platform-policy',
    'PLATFORM',
    role('Admin'),
    ADMIN_PLATFORM,
    'Admins - Platform Policy',
    'Admins have all platform privileges.',
    false,
  ),
  policy(
    'admin-metadata-policy',
    'METADATA',
    role('Admin'),
    [
      'VIEW_ENTITY_PAGE',
      ...EDITS,
      ...READS.slice(0, 4),
      'GET_TIMELINE_PRIVILEGE',
      'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
      'MANAGE_DATA_PRODUCTS',
      'DELETE_ENTITY',
    ],
    'Admins - Metadata Policy',
    'Admins have all metadata privileges.',
    false,
  ),
  policy(
    'editor-platform-policy',
    'PLATFORM',
    role('Editor'),
    [
      'GENERATE_PERSONAL_ACCESS_TOKENS',
      'MANAGE_DOMAINS',
      'MANAGE_GLOBAL_ANNOUNCEMENTS',
      'MANAGE_GLOSSARIES',
      'MANAGE_TAGS',
    ],
    'Editors - Platform Policy',
    'Editors can manage ingestion and view analytics.',
    false,
  ),
  policy(
    'editor-metadata-policy',
    'METADATA',
    role('Editor'),
    [
      'VIEW_ENTITY_PAGE',
      ...EDITOR_EDITS,
      ...READS,
      'PRODUCE_PLATFORM_EVENT_PRIVILEGE',
      'MANAGE_DATA_PRODUCTS',
    ],
    'Editors - Metadata Policy',
    'Editors have all metadata privileges.',
    false,
  ),
  policy(
    'editor-metadata-policy-entities',
    'METADATA',
    role('Editor'),
    ['EDIT_ENTITY'],
    'Editors - Edit Metadata Entities',
    'Editors can edit primary metadata entities.',
    true,
    {
      allResources: false,
      filter: {
        criteria: [
          {
            field: 'RESOURCE_TYPE',
            values: [
              'dataset',
              'chart',
              'dashboard',
              'dataFlow',
              'dataJob',
              'tag',
              'container',
              'domain',
              'glossaryTerm',
              'glossaryNode',
              'notebook',
              'dataProduct',
            ],
            condition: 'EQUALS',
          },
        ],
      },
    },
  ),
  policy(
    'reader-platform-policy',
    'PLATFORM',
    role('Reader'),
    [],
    'Readers - Platform Policy',
    'Readers can view analytics.',
    false,
  ),
  policy(
    'reader-metadata-policy',
    'METADATA',
    role('Reader'),
    ['VIEW_ENTITY_PAGE', 'VIEW_DATASET_USAGE', 'VIEW_DATASET_PROFILE', ...READS],
    'Readers - Metadata Policy',
    'Readers can view all assets.',
    false,
  ),
  policy(
    'asset-owners-metadata-policy',
    'METADATA',
    { ...none, resourceOwners: true, groups: [] },
    [
      'VIEW_ENTITY_PAGE',
      ...EDITS,
      'GET_TIMELINE_PRIVILEGE',
      'GET_ENTITY_PRIVILEGE',
      'GET_TIMESERIES_ASPECT_PRIVILEGE',
      'GET_COUNTS_PRIVILEGE',
      'MANAGE_DATA_PRODUCTS',
    ],
    'Asset Owners - Metadata Policy',
    'Asset Owners have all metadata privileges ONLY for assets they own.',
    true,
  ),
]

/** DataHub's default roles (`dataHubRoleInfo`). */
export const DEFAULT_ROLES: readonly {
  urn: string
  info: { name: string; description: string; editable: boolean }
}[] = [
  {
    urn: 'urn:li:dataHubRole:Admin',
    info: { name: 'Admin', description: 'Can do everything on the platform.', editable: false },
  },
  {
    urn: 'urn:li:dataHubRole:Editor',
    info: {
      name: 'Editor',
      description: 'Can read and edit all metadata. Cannot take administrative actions.',
      editable: false,
    },
  },
  {
    urn: 'urn:li:dataHubRole:Reader',
    info: {
      name: 'Reader',
      description: 'Can read all metadata. Cannot edit anything by default, or take administrative actions.',
      editable: false,
    },
  },
]
