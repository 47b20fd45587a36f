/**
 * DataHub's privilege names (`PoliciesConfig.java`) and which ones each low-level API
 * operation needs (its `API_PRIVILEGE_MAP` for the entity group and `API_ENTITY_PRIVILEGE_MAP`
 * for entity types with their own rules). A list is a disjunction: any one privilege grants.
 */
export const Privilege = {
  MANAGE_POLICIES: 'MANAGE_POLICIES',
  MANAGE_INGESTION: 'MANAGE_INGESTION',
  MANAGE_SECRETS: 'MANAGE_SECRETS',
  MANAGE_CONNECTIONS: 'MANAGE_CONNECTIONS',
  MANAGE_USERS_AND_GROUPS: 'MANAGE_USERS_AND_GROUPS',
  CREATE_USERS_AND_GROUPS: 'CREATE_USERS_AND_GROUPS',
  UPDATE_USERS_AND_GROUPS: 'UPDATE_USERS_AND_GROUPS',
  GENERATE_PERSONAL_ACCESS_TOKENS: 'GENERATE_PERSONAL_ACCESS_TOKENS',
  MANAGE_ACCESS_TOKENS: 'MANAGE_ACCESS_TOKENS',
  MANAGE_USER_CREDENTIALS: 'MANAGE_USER_CREDENTIALS',
  RESTORE_INDICES: 'RESTORE_INDICES_PRIVILEGE',
  GET_TIMESERIES_INDEX_SIZES: 'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE',
  TRUNCATE_TIMESERIES_INDEX: 'TRUNCATE_TIMESERIES_INDEX_PRIVILEGE',
  GET_ES_TASK_STATUS: 'GET_ES_TASK_STATUS_PRIVILEGE',
  VIEW_ENTITY_PAGE: 'VIEW_ENTITY_PAGE',
  EXISTS_ENTITY: 'EXISTS_ENTITY',
  CREATE_ENTITY: 'CREATE_ENTITY',
  EDIT_ENTITY: 'EDIT_ENTITY',
  EDIT_ENTITY_TAGS: 'EDIT_ENTITY_TAGS',
  EDIT_ENTITY_OWNERS: 'EDIT_ENTITY_OWNERS',
  DELETE_ENTITY: 'DELETE_ENTITY',
  GET_ENTITY: 'GET_ENTITY_PRIVILEGE',
  SEARCH: 'SEARCH_PRIVILEGE',
} as const

/** DataHub's `ApiOperation`s that writes map to. */
export type ApiOperation = 'CREATE' | 'READ' | 'UPDATE' | 'DELETE'

type OperationPrivileges = Readonly<Record<ApiOperation, readonly string[]>>

const P = Privilege

/** `API_PRIVILEGE_MAP[ENTITY]`: any entity type without its own entry. */
export const ENTITY_PRIVILEGES: OperationPrivileges = {
  CREATE: [P.CREATE_ENTITY, P.EDIT_ENTITY],
  READ: [P.VIEW_ENTITY_PAGE, P.GET_ENTITY, P.EDIT_ENTITY, P.DELETE_ENTITY],
  UPDATE: [P.EDIT_ENTITY],
  DELETE: [P.DELETE_ENTITY],
}

const usersAndGroups: OperationPrivileges = {
  CREATE: [P.CREATE_USERS_AND_GROUPS, P.MANAGE_USERS_AND_GROUPS],
  READ: ENTITY_PRIVILEGES.READ,
  UPDATE: [P.UPDATE_USERS_AND_GROUPS, P.MANAGE_USERS_AND_GROUPS],
  DELETE: [P.MANAGE_USERS_AND_GROUPS],
}

const managed = (privilege: string): OperationPrivileges => ({
  CREATE: [privilege],
  READ: ENTITY_PRIVILEGES.READ,
  UPDATE: [privilege],
  DELETE: [privilege],
})

/**
 * `API_ENTITY_PRIVILEGE_MAP`, plus `dataHubRole` (managed with the policies, as role
 * assignment is in DataHub) and `dataHubConnection` (managed as `upsertConnection` is).
 */
export const ENTITY_TYPE_PRIVILEGES: Readonly<Record<string, OperationPrivileges>> = {
  dataHubPolicy: managed(P.MANAGE_POLICIES),
  dataHubRole: managed(P.MANAGE_POLICIES),
  corpuser: usersAndGroups,
  corpGroup: usersAndGroups,
  dataHubIngestionSource: managed(P.MANAGE_INGESTION),
  dataHubSecret: { ...managed(P.MANAGE_SECRETS), READ: [P.MANAGE_SECRETS] },
  // A connection's blob is encrypted with the secrets' key: only its managers read or write it.
  dataHubConnection: { ...managed(P.MANAGE_CONNECTIONS), READ: [P.MANAGE_CONNECTIONS] },
  dataHubAccessToken: {
    CREATE: [P.MANAGE_ACCESS_TOKENS, P.CREATE_ENTITY, P.EDIT_ENTITY],
    READ: [P.MANAGE_ACCESS_TOKENS, P.VIEW_ENTITY_PAGE, P.GET_ENTITY, P.EDIT_ENTITY, P.DELETE_ENTITY],
    UPDATE: [P.MANAGE_ACCESS_TOKENS, P.EDIT_ENTITY],
    DELETE: [P.MANAGE_ACCESS_TOKENS, P.DELETE_ENTITY],
  },
}

/** Aspects whose writes need a platform privilege whatever the entity's own rules say. */
export const ASPECT_PRIVILEGES: Readonly<Record<string, readonly string[]>> = {
  corpUserCredentials: [P.MANAGE_USER_CREDENTIALS],
  roleMembership: [P.MANAGE_POLICIES],
}

const ASPECT_BY_LOWER = new Map(Object.entries(ASPECT_PRIVILEGES).map(([k, v]) => [k.toLowerCase(), v]))

/** DataHub's operation for an MCP change type. */
export function operationOf(changeType: string): ApiOperation {
  if (changeType === 'DELETE') return 'DELETE'
  if (changeType === 'CREATE' || changeType === 'CREATE_ENTITY') return 'CREATE'
  return 'UPDATE'
}

/**
 * The privileges (any one suffices) a write of `aspect` on an entity of `entityType` needs;
 * several lists must all be met.
 */
export function writePrivileges(
  entityType: string,
  aspect: string | undefined,
  changeType: string,
): string[][] {
  const op = operationOf(changeType)
  const needs = [[...(ENTITY_TYPE_PRIVILEGES[entityType] ?? ENTITY_PRIVILEGES)[op]]]
  const extra = aspect === undefined ? undefined : ASPECT_BY_LOWER.get(aspect.toLowerCase())
  if (extra) needs.push([...extra])
  return needs
}
