import { assertionAssertee, parseUrn } from '@catalog/core'
import type { Requirement } from './authorizer.js'
import {
  batchEdit,
  batchLabelEdit,
  eachUrn,
  editOf,
  entityUpdate,
  labelEdit,
  rowOf,
  rowsOf,
  strOf,
} from './entity-edit-rules.js'

/** DataHub's GraphQL `AuthorizationException` message. */
export const GRAPHQL_UNAUTHORIZED_MESSAGE =
  'Unauthorized to perform this action. Please contact your DataHub administrator.'

/** What one mutation call needs, and DataHub's message when it is refused (default above). */
export interface MutationCheck {
  readonly requirements: readonly Requirement[]
  readonly message?: string
}

/** What a rule may look up: the caller, and one stored aspect (undefined when absent). */
export interface MutationFacts {
  readonly actor: string
  read(urn: string, aspect: string): Promise<Record<string, unknown> | undefined>
}

type Args = Record<string, unknown>
type Rule = (args: Args, facts: MutationFacts) => readonly Requirement[] | Promise<MutationCheck>

const platform = (...anyOf: string[]): Requirement[] => [{ anyOf }]
const input = (args: Args) => rowOf(args.input)
/** A platform privilege, or `privilege` on the entity itself (`deleteTag`: MANAGE_TAGS or DELETE_ENTITY). */
const managedOr = (manage: string, urn: unknown, privilege: string): Requirement[] => {
  const resource = strOf(urn)
  return [{ anyOf: [manage, privilege], ...(resource !== undefined ? { resource } : {}) }]
}
/**
 * DataHub's business attribute (de)attachment: EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE or
 * EDIT_ENTITY on the dataset of each column (`input.resourceUrn`, a list of schema field URNs).
 */
const COLUMN_ATTRIBUTES = (a: Args): Requirement[] => {
  const rows = rowsOf(input(a).resourceUrn)
  if (rows.length === 0) return [editOf(undefined, 'EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE')]
  return rows.map((r) => editOf(fieldParent(r.resourceUrn), 'EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE'))
}
/** The dataset of a schema field URN; any other value as it is (the resolver refuses it). */
function fieldParent(urn: unknown): unknown {
  if (typeof urn !== 'string') return urn
  try {
    const parsed = parseUrn(urn)
    return parsed.entityType === 'schemaField' ? parsed.parts[0] : urn
  } catch {
    return urn
  }
}
/** DataHub's form administration (`canManageForms`), with the message of the `verb` resolver. */
const FORMS = (verb: string) => async (): Promise<MutationCheck> => ({
  requirements: platform('MANAGE_DOCUMENTATION_FORMS'),
  message: `Unable to ${verb} form. Please contact your admin.`,
})
/** DataHub's `canCreateERModelRelation`: EDIT_ENTITY or CREATE_ENTITY_ER_MODEL_RELATIONSHIP on both datasets. */
function relationshipDatasets(properties: Record<string, unknown>): Requirement[] {
  return [properties.source, properties.destination].map((urn) => {
    const resource = strOf(urn)
    return {
      anyOf: ['EDIT_ENTITY', 'CREATE_ENTITY_ER_MODEL_RELATIONSHIP'],
      ...(resource !== undefined ? { resource } : {}),
    }
  })
}
/**
 * A global home page template or module needs MANAGE_HOME_PAGE_TEMPLATES (DataHub's
 * `canManageHomePageTemplates`); a personal one is anyone's (its resolver guards existing ones).
 */
const HOME_PAGE =
  (what: string) =>
  async (a: Args): Promise<MutationCheck> =>
    input(a).scope === 'PERSONAL'
      ? { requirements: [] }
      : {
          requirements: platform('MANAGE_HOME_PAGE_TEMPLATES'),
          message: `User does not have permission to update global ${what}.`,
        }
/** DataHub's `canManageServiceAccounts`, with the message of the `verb` resolver. */
const SERVICE_ACCOUNTS = (verb: string) => async (): Promise<MutationCheck> => ({
  requirements: platform('MANAGE_SERVICE_ACCOUNTS'),
  message: `Unauthorized to ${verb} service accounts. Please contact your DataHub administrator.`,
})
const DOCUMENT_EDIT = (a: Args) => [editOf(input(a).urn, 'MANAGE_DOCUMENTS')]
/** Open to every authenticated caller: the resolver acts on the caller's own records only. */
const open: Rule = () => []

const TAGS = (a: Args) => [labelEdit(input(a), 'EDIT_ENTITY_TAGS', 'EDIT_DATASET_COL_TAGS')]
const TERMS = (a: Args) => [
  labelEdit(input(a), 'EDIT_ENTITY_GLOSSARY_TERMS', 'EDIT_DATASET_COL_GLOSSARY_TERMS'),
]
const OWNERS = (a: Args) => [editOf(input(a).resourceUrn, 'EDIT_ENTITY_OWNERS')]
const LINKS = (a: Args) => [editOf(input(a).resourceUrn, 'EDIT_ENTITY_DOC_LINKS')]
const UPDATE = (a: Args) => entityUpdate(a.urn, rowOf(a.input))
const GLOSSARY = () => platform('MANAGE_GLOSSARIES')
const USERS = () => platform('MANAGE_USERS_AND_GROUPS')
const POLICIES = () => platform('MANAGE_POLICIES')
const INGESTION = () => platform('MANAGE_INGESTION')
const SECRETS = () => platform('MANAGE_SECRETS')
const TESTS = () => platform('MANAGE_TESTS')
const OWNERSHIP_TYPES = () => platform('MANAGE_GLOBAL_OWNERSHIP_TYPES')
const POSTS = () => platform('MANAGE_GLOBAL_ANNOUNCEMENTS')
/** DataHub's `canEditProperties` on the asset, with its message naming the asset. */
const STRUCTURED = async (a: Args): Promise<MutationCheck> => ({
  requirements: [editOf(input(a).assetUrn, 'EDIT_ENTITY_PROPERTIES')],
  message: `Not authorized to update properties on the gives urn ${strOf(input(a).assetUrn)}`,
})
/** DataHub's `canManageStructuredProperties`, with the message of the `verb` resolver. */
const PROPERTIES_ADMIN = (verb: string) => async (): Promise<MutationCheck> => ({
  requirements: platform('MANAGE_STRUCTURED_PROPERTIES'),
  message: `Unable to ${verb} structured property. Please contact your admin.`,
})
/**
 * DataHub's Update/DeleteDataProductResolver: MANAGE_DATA_PRODUCTS on the data product's domain.
 * DataHub checks nothing for a product without a domain; here that case needs the privilege on
 * the product itself (fail closed).
 */
async function DATA_PRODUCT(a: Args, facts: MutationFacts): Promise<MutationCheck> {
  const urn = strOf(a.urn)
  const domains = urn ? await facts.read(urn, 'domains') : undefined
  const domain = Array.isArray(domains?.domains) ? strOf(domains.domains[0]) : undefined
  return { requirements: [editOf(domain ?? urn, 'MANAGE_DATA_PRODUCTS')] }
}
/**
 * An edit of the assertion `urn`: EDIT_ENTITY_ASSERTIONS on the entity it asserts on (DataHub's
 * `isAuthorizedToEditAssertionFromAssertee`). An assertion without one (absent, or naming no
 * entity) is checked against itself: its resolver then refuses it or finds nothing to delete.
 */
async function ASSERTEE(a: Args, facts: MutationFacts): Promise<MutationCheck> {
  const urn = strOf(a.urn)
  const info = urn ? await facts.read(urn, 'assertionInfo') : undefined
  return { requirements: [editOf(assertionAssertee(info) ?? urn, 'EDIT_ENTITY_ASSERTIONS')] }
}

/**
 * The resource an incident edit on `urn` is authorized against (DataHub's
 * `getIncidentAuthorizationUrn`): a schema field's dataset (or chart, dashboard), else `urn`.
 */
function incidentResource(urn: unknown): unknown {
  if (typeof urn !== 'string' || !urn.startsWith('urn:li:schemaField:')) return urn
  try {
    return parseUrn(urn).parts[0] ?? urn
  } catch {
    return urn
  }
}

/** EDIT_ENTITY_INCIDENTS on each resource (DataHub's `isAuthorizedToEditIncidentForResource`). */
const incidentEdits = (urns: readonly unknown[]): Requirement[] =>
  eachUrn([...new Set(urns.map(incidentResource))], 'EDIT_ENTITY_INCIDENTS')

/**
 * An edit of the incident `urn` (DataHub's `verifyAuthorizationOrThrow`): EDIT_ENTITY_INCIDENTS on
 * every entity it is raised on, and on each new one `input.resourceUrns` names. An incident that
 * does not exist is checked against itself: its resolver then answers that it does not exist.
 */
async function INCIDENT_EDIT(a: Args, facts: MutationFacts): Promise<MutationCheck> {
  const urn = strOf(a.urn)
  const info = urn ? await facts.read(urn, 'incidentInfo') : undefined
  const existing = Array.isArray(info?.entities) ? info.entities : []
  const added = Array.isArray(input(a).resourceUrns) ? (input(a).resourceUrns as unknown[]) : []
  const all = [...existing, ...added.filter((u) => !existing.includes(u))]
  return { requirements: all.length > 0 ? incidentEdits(all) : [editOf(urn, 'EDIT_ENTITY_INCIDENTS')] }
}

/**
 * Entity types, and aspects of any entity, that a generic patch may touch only with the platform
 * privilege their own mutations ask: patching them would grant privileges (policies, roles, group
 * memberships), store a secret unencrypted, or bypass the checks of those mutations.
 */
const PATCH_GUARDED_TYPES: Readonly<Record<string, string>> = {
  dataHubPolicy: 'MANAGE_POLICIES',
  dataHubRole: 'MANAGE_POLICIES',
  inviteToken: 'MANAGE_POLICIES',
  dataHubSecret: 'MANAGE_SECRETS',
  dataHubIngestionSource: 'MANAGE_INGESTION',
  dataHubExecutionRequest: 'MANAGE_INGESTION',
  dataHubAccessToken: 'MANAGE_ACCESS_TOKENS',
  globalSettings: 'MANAGE_GLOBAL_SETTINGS',
  test: 'MANAGE_TESTS',
  post: 'MANAGE_GLOBAL_ANNOUNCEMENTS',
  dataHubConnection: 'MANAGE_CONNECTIONS',
}
const PATCH_GUARDED_ASPECTS: Readonly<Record<string, string>> = {
  corpUserCredentials: 'MANAGE_USER_CREDENTIALS',
  roleMembership: 'MANAGE_POLICIES',
  groupMembership: 'MANAGE_USERS_AND_GROUPS',
  nativeGroupMembership: 'MANAGE_USERS_AND_GROUPS',
  corpUserStatus: 'MANAGE_USERS_AND_GROUPS',
}

/** `table[key]` when `key` is its own member (never one of Object's: `constructor`, `__proto__`). */
const own = (table: Readonly<Record<string, string>>, key: string | undefined): string | undefined =>
  key !== undefined && Object.hasOwn(table, key) ? table[key] : undefined

/** What generic patches of `inputs` ask: EDIT_ENTITY on each URN, and any guarded type's or aspect's privilege. */
function patchRequirements(inputs: readonly Record<string, unknown>[]): Requirement[] {
  if (inputs.length === 0) return [editOf(undefined, 'EDIT_ENTITY')]
  return inputs.flatMap((i) => {
    const urn = strOf(i.urn)
    const type = urn?.startsWith('urn:li:')
      ? urn.slice('urn:li:'.length, urn.indexOf(':', 'urn:li:'.length))
      : undefined
    const guards = [own(PATCH_GUARDED_TYPES, type), own(PATCH_GUARDED_ASPECTS, strOf(i.aspectName))].filter(
      (p): p is string => p !== undefined,
    )
    return [editOf(urn, 'EDIT_ENTITY'), ...guards.map((p) => ({ anyOf: [p] }))]
  })
}

/**
 * DataHub's `canUpdateQuery` / `canDeleteQuery`: EDIT_ENTITY_QUERIES on every subject the query
 * has (and, for an update, every subject it is given); a query without subjects on itself.
 */
async function QUERY_EDIT(a: Args, facts: MutationFacts, verb: 'update' | 'delete'): Promise<MutationCheck> {
  const urn = strOf(a.urn)
  const stored = urn ? await facts.read(urn, 'querySubjects') : undefined
  const subjects = [
    ...rowsOf(stored?.subjects).map((s) => s.entity),
    ...(verb === 'update' ? rowsOf(input(a).subjects).map((s) => s.datasetUrn) : []),
  ].filter((s) => strOf(s) !== undefined)
  return {
    requirements:
      subjects.length > 0 ? eachUrn(subjects, 'EDIT_ENTITY_QUERIES') : [editOf(urn, 'EDIT_ENTITY_QUERIES')],
    message: `Unauthorized to ${verb} Query. Please contact your DataHub administrator if this needs corrective action.`,
  }
}

const GROUP_MEMBERS = (a: Args) =>
  managedOr('MANAGE_USERS_AND_GROUPS', input(a).groupUrn, 'EDIT_GROUP_MEMBERS')

/** `updateName`: the manage privilege of the renamed entity's type (DataHub's `UpdateNameResolver`). */
function rename(a: Args): Requirement[] {
  const urn = strOf(input(a).urn) ?? ''
  const type = urn.split(':')[2]
  if (type === 'glossaryTerm' || type === 'glossaryNode') return platform('MANAGE_GLOSSARIES')
  if (type === 'domain') return platform('MANAGE_DOMAINS')
  if (type === 'corpGroup') return platform('MANAGE_USERS_AND_GROUPS')
  if (type === 'dataProduct') return [editOf(urn, 'MANAGE_DATA_PRODUCTS')]
  return [editOf(urn || undefined, 'EDIT_ENTITY')]
}

/** `updateLineage`: lineage edit rights on both ends of every edge added or removed. */
function lineage(a: Args): Requirement[] {
  const edges = [...rowsOf(input(a).edgesToAdd), ...rowsOf(input(a).edgesToRemove)]
  const urns = edges.flatMap((e) => [e.upstreamUrn, e.downstreamUrn])
  return eachUrn(urns, 'EDIT_LINEAGE')
}

/**
 * DataHub's `CorpUserType.isAuthorizedToUpdate`: a user edits its own profile; others need
 * EDIT_ENTITY on the user, or EDIT_CONTACT_INFO when slack, email or phone change, else
 * EDIT_USER_PROFILE (where DataHub asks nothing for an input of other fields, this fails closed).
 */
function userProfile(a: Args, facts: MutationFacts): readonly Requirement[] {
  if (a.urn === facts.actor) return []
  const i = input(a)
  const contact = i.slack != null || i.email != null || i.phone != null
  return [editOf(a.urn, contact ? 'EDIT_CONTACT_INFO' : 'EDIT_USER_PROFILE')]
}

/**
 * DataHub's `CorpGroupType.isAuthorizedToUpdate`: EDIT_ENTITY on the group, or EDIT_ENTITY_DOCS
 * when the description changes, else EDIT_CONTACT_INFO (for slack or email; other inputs fail
 * closed to it where DataHub asks nothing).
 */
function groupProfile(a: Args): readonly Requirement[] {
  const docs = input(a).description != null
  return [editOf(a.urn, docs ? 'EDIT_ENTITY_DOCS' : 'EDIT_CONTACT_INFO')]
}

/**
 * DataHub's `UpdateDisplayPropertiesResolver`: a glossary term or node's colour and icon need
 * MANAGE_GLOSSARIES (DataHub also lets holders of the parent node's MANAGE_GLOSSARY_CHILDREN,
 * not modelled here: fail closed); any other entity's need MANAGE_DOMAINS.
 */
function displayProperties(a: Args): readonly Requirement[] {
  const type = (strOf(a.urn) ?? '').split(':')[2]
  if (type === 'glossaryTerm' || type === 'glossaryNode') return GLOSSARY()
  return platform('MANAGE_DOMAINS')
}

/** A personal token for oneself needs GENERATE_PERSONAL_ACCESS_TOKENS; for anyone else MANAGE_ACCESS_TOKENS. */
function createToken(a: Args, facts: MutationFacts): readonly Requirement[] {
  // DataHub's CreateAccessTokenResolver: a service account's token needs MANAGE_SERVICE_ACCOUNTS alone.
  if (input(a).type === 'SERVICE_ACCOUNT') return platform('MANAGE_SERVICE_ACCOUNTS')
  if (input(a).actorUrn === facts.actor)
    return platform('GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_ACCESS_TOKENS')
  return platform('MANAGE_ACCESS_TOKENS')
}

/** Its owner (or actor) revokes a token; anyone else needs MANAGE_ACCESS_TOKENS. */
async function revokeToken(a: Args, facts: MutationFacts): Promise<MutationCheck> {
  const id = strOf(a.tokenId)
  const info = id ? await facts.read(`urn:li:dataHubAccessToken:${id}`, 'dataHubAccessTokenInfo') : undefined
  if (info && (info.ownerUrn === facts.actor || info.actorUrn === facts.actor)) return { requirements: [] }
  return { requirements: platform('MANAGE_ACCESS_TOKENS') }
}

/** DataHub's `ViewUtils.canCreateView`: a personal view is anyone's; a global one needs MANAGE_GLOBAL_VIEWS. */
function createView(a: Args): readonly Requirement[] {
  return input(a).viewType === 'PERSONAL' ? [] : platform('MANAGE_GLOBAL_VIEWS')
}

/**
 * DataHub's `ViewUtils.canUpdateView`: its creator, or for a global view MANAGE_GLOBAL_VIEWS;
 * nobody else (an absent view is left to the resolver's "does not exist").
 */
async function updateView(a: Args, facts: MutationFacts): Promise<MutationCheck> {
  const urn = strOf(a.urn)
  if (!urn) return { requirements: platform('MANAGE_GLOBAL_VIEWS') }
  const info = await facts.read(urn, 'dataHubViewInfo')
  const creator = (info?.created as { actor?: unknown } | undefined)?.actor
  if (!info || creator === facts.actor) return { requirements: [] }
  return { requirements: info.type === 'GLOBAL' ? platform('MANAGE_GLOBAL_VIEWS') : [{ anyOf: [] }] }
}

/**
 * Every GraphQL mutation of DataHub's schema this catalog knows the rule of, keyed by name:
 * the privileges its DataHub resolver checks, on the resources named by its input. A name
 * missing here is refused to all but policy managers (see {@link mutationCheck}).
 */
const RULES: Readonly<Record<string, Rule>> = {
  // Tags, terms, owners, links, descriptions (LabelUtils, OwnerUtils, LinkUtils, DescriptionUtils).
  addTag: TAGS,
  addTags: TAGS,
  removeTag: TAGS,
  batchAddTags: (a) => batchLabelEdit(input(a), 'EDIT_ENTITY_TAGS', 'EDIT_DATASET_COL_TAGS'),
  batchRemoveTags: (a) => batchLabelEdit(input(a), 'EDIT_ENTITY_TAGS', 'EDIT_DATASET_COL_TAGS'),
  addTerm: TERMS,
  addTerms: TERMS,
  removeTerm: TERMS,
  batchAddTerms: (a) =>
    batchLabelEdit(input(a), 'EDIT_ENTITY_GLOSSARY_TERMS', 'EDIT_DATASET_COL_GLOSSARY_TERMS'),
  batchRemoveTerms: (a) =>
    batchLabelEdit(input(a), 'EDIT_ENTITY_GLOSSARY_TERMS', 'EDIT_DATASET_COL_GLOSSARY_TERMS'),
  addOwner: OWNERS,
  addOwners: OWNERS,
  removeOwner: OWNERS,
  batchAddOwners: (a) => batchEdit(input(a).resources, 'EDIT_ENTITY_OWNERS'),
  batchRemoveOwners: (a) => batchEdit(input(a).resources, 'EDIT_ENTITY_OWNERS'),
  addLink: LINKS,
  removeLink: LINKS,
  updateLink: LINKS,
  upsertLink: LINKS,
  updateDescription: (a) => [labelEdit(input(a), 'EDIT_ENTITY_DOCS', 'EDIT_DATASET_COL_DESCRIPTION')],
  // Domains, deprecation, status, data products.
  setDomain: (a) => [editOf(a.entityUrn, 'EDIT_DOMAINS_PRIVILEGE')],
  unsetDomain: (a) => [editOf(a.entityUrn, 'EDIT_DOMAINS_PRIVILEGE')],
  batchSetDomain: (a) => batchEdit(input(a).resources, 'EDIT_DOMAINS_PRIVILEGE'),
  createDomain: () => platform('CREATE_DOMAINS', 'MANAGE_DOMAINS'),
  moveDomain: () => platform('MANAGE_DOMAINS'),
  deleteDomain: (a) => managedOr('MANAGE_DOMAINS', a.urn, 'DELETE_ENTITY'),
  updateDeprecation: (a) => [editOf(input(a).urn, 'EDIT_DEPRECATION_PRIVILEGE')],
  batchUpdateDeprecation: (a) => batchEdit(input(a).resources, 'EDIT_DEPRECATION_PRIVILEGE'),
  batchUpdateSoftDeleted: (a) => eachUrn(input(a).urns, 'EDIT_ENTITY_STATUS'),
  createDataProduct: (a) => [editOf(input(a).domainUrn, 'MANAGE_DATA_PRODUCTS')],
  updateDataProduct: DATA_PRODUCT,
  deleteDataProduct: DATA_PRODUCT,
  batchSetDataProduct: (a) => eachUrn(input(a).resourceUrns, 'EDIT_ENTITY_DATA_PRODUCTS'),
  batchAddToDataProducts: (a) => eachUrn(input(a).resourceUrns, 'EDIT_ENTITY_DATA_PRODUCTS'),
  batchRemoveFromDataProducts: (a) => eachUrn(input(a).resourceUrns, 'EDIT_ENTITY_DATA_PRODUCTS'),
  // Whole-entity updates (DatasetType, ChartType, ... `isAuthorizedToUpdate`).
  updateDataset: UPDATE,
  updateChart: UPDATE,
  updateDashboard: UPDATE,
  updateNotebook: UPDATE,
  updateDataFlow: UPDATE,
  updateDataJob: UPDATE,
  updateDatasets: (a) => {
    const updates = rowsOf(a.input)
    if (updates.length === 0) return [editOf(undefined, 'EDIT_ENTITY')]
    return updates.flatMap((u) => entityUpdate(u.urn, rowOf(u.update)))
  },
  updateName: rename,
  updateLineage: lineage,
  updateEmbed: (a) => [editOf(input(a).urn, 'EDIT_ENTITY_EMBED')],
  updateDisplayProperties: displayProperties,
  reportOperation: (a) => [editOf(input(a).urn, 'EDIT_ENTITY_OPERATIONS')],
  // Assertions (AssertionUtils.isAuthorizedToEditAssertionFromAssertee): on the asserted entity.
  upsertCustomAssertion: (a) => [editOf(input(a).entityUrn, 'EDIT_ENTITY_ASSERTIONS')],
  reportAssertionResult: ASSERTEE,
  deleteAssertion: ASSERTEE,
  // Incidents (IncidentUtils.isAuthorizedToEditIncidentForResource): on the entities raised on.
  raiseIncident: (a) => {
    const urns = Array.isArray(input(a).resourceUrns) ? [...(input(a).resourceUrns as unknown[])] : []
    if (input(a).resourceUrn != null) urns.push(input(a).resourceUrn)
    return incidentEdits(urns)
  },
  updateIncident: INCIDENT_EDIT,
  updateIncidentStatus: INCIDENT_EDIT,
  // Generic patches (AuthorizationUtils.isAuthorizedForPatch): EDIT_ENTITY on each entity, and
  // the platform privilege of what a dedicated mutation guards (policies, secrets, roles...).
  patchEntity: (a) => patchRequirements([input(a)]),
  patchEntities: (a) => patchRequirements(rowsOf(a.input)),
  // Data contracts (DataContractUtils.canEditDataContract): on the entity the contract is for.
  upsertDataContract: (a) => [editOf(input(a).entityUrn, 'EDIT_ENTITY_DATA_CONTRACT')],
  // Asset versions (AuthUtil.isAPIAuthorizedEntityUrns UPDATE): on the set and the entity.
  linkAssetVersion: (a) => eachUrn([input(a).versionSet, input(a).linkedEntity], 'EDIT_ENTITY'),
  unlinkAssetVersion: (a) => eachUrn([input(a).versionSet, input(a).unlinkedEntity], 'EDIT_ENTITY'),
  upsertStructuredProperties: STRUCTURED,
  removeStructuredProperties: STRUCTURED,
  createQuery: async (a) => ({
    requirements: eachUrn(
      rowsOf(input(a).subjects).map((s) => s.datasetUrn),
      'EDIT_ENTITY_QUERIES',
    ),
    message: 'Unauthorized to create Query. Please contact your DataHub administrator for more information.',
  }),
  updateQuery: (a, facts) => QUERY_EDIT(a, facts, 'update'),
  deleteQuery: (a, facts) => QUERY_EDIT(a, facts, 'delete'),
  // Tags as entities.
  createTag: () => platform('CREATE_TAGS', 'MANAGE_TAGS'),
  // TagType.isAuthorized: EDIT_ENTITY on the input's tag (its `name` is required, so the specific
  // group always holds EDIT_ENTITY too); the written tag is the `urn` argument, so both are checked.
  updateTag: (a) => eachUrn([...new Set([a.urn, input(a).urn])], 'EDIT_ENTITY'),
  deleteTag: (a) => managedOr('MANAGE_TAGS', a.urn, 'DELETE_ENTITY'),
  setTagColor: (a) => [editOf(a.urn, 'EDIT_TAG_COLOR')],
  // Glossary (GlossaryUtils.canManageGlossaries).
  createGlossaryTerm: GLOSSARY,
  createGlossaryNode: GLOSSARY,
  deleteGlossaryEntity: GLOSSARY,
  updateParentNode: GLOSSARY,
  addRelatedTerms: GLOSSARY,
  removeRelatedTerms: GLOSSARY,
  // Users, groups, roles, policies, credentials, tokens.
  createGroup: USERS,
  removeUser: USERS,
  removeGroup: USERS,
  updateUserStatus: USERS,
  addGroupMembers: GROUP_MEMBERS,
  removeGroupMembers: GROUP_MEMBERS,
  updateCorpUserProperties: userProfile,
  updateCorpGroupProperties: groupProfile,
  createPolicy: POLICIES,
  updatePolicy: POLICIES,
  deletePolicy: POLICIES,
  batchAssignRole: async () => ({
    requirements: POLICIES(),
    message:
      'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.',
  }),
  createInviteToken: POLICIES,
  createNativeUserResetToken: () => platform('MANAGE_USER_CREDENTIALS'),
  acceptRole: open,
  createAccessToken: createToken,
  revokeAccessToken: revokeToken,
  // The caller's own settings and onboarding steps.
  updateUserSetting: open,
  updateCorpUserViewsSettings: open,
  updateUserHomePageSettings: open,
  updateCorpUserLocaleSettings: open,
  batchUpdateStepStates: open,
  // Platform administration.
  createPost: () => platform('CREATE_GLOBAL_ANNOUNCEMENTS', 'MANAGE_GLOBAL_ANNOUNCEMENTS'),
  updatePost: POSTS,
  deletePost: POSTS,
  createOwnershipType: OWNERSHIP_TYPES,
  updateOwnershipType: OWNERSHIP_TYPES,
  deleteOwnershipType: OWNERSHIP_TYPES,
  createSecret: SECRETS,
  updateSecret: SECRETS,
  deleteSecret: SECRETS,
  createIngestionSource: INGESTION,
  updateIngestionSource: INGESTION,
  deleteIngestionSource: INGESTION,
  createIngestionExecutionRequest: INGESTION,
  cancelIngestionExecutionRequest: INGESTION,
  createTestConnectionRequest: INGESTION,
  rollbackIngestion: INGESTION,
  upsertConnection: async (): Promise<MutationCheck> => ({
    requirements: platform('MANAGE_CONNECTIONS'),
    message:
      'Unauthorized to upsert Connection. Please contact your DataHub administrator for more information.',
  }),
  createApplication: () => platform('EDIT_ENTITY'),
  updateApplication: (a) => [editOf(a.urn, 'EDIT_ENTITY')],
  deleteApplication: (a) => [editOf(a.urn, 'EDIT_ENTITY')],
  batchSetApplication: (a) => eachUrn(input(a).resourceUrns, 'EDIT_ENTITY_APPLICATIONS'),
  batchUnsetApplication: (a) => eachUrn(input(a).resourceUrns, 'EDIT_ENTITY_APPLICATIONS'),
  createERModelRelationship: async (a): Promise<MutationCheck> => ({
    requirements: relationshipDatasets(rowOf(input(a).properties)),
    message: 'Unauthorized to create erModelRelationship. Please contact your DataHub administrator.',
  }),
  updateERModelRelationship: (a) => {
    const p = input(a).properties
    // DataHub lets EDIT_ENTITY_DOCS through whenever editable properties are sent, even with new
    // datasets: here the properties need EDIT_ENTITY on it and, as create, a privilege on both datasets.
    if (p == null) return [editOf(a.urn, 'EDIT_ENTITY_DOCS')]
    return [editOf(a.urn, 'EDIT_ENTITY'), ...relationshipDatasets(rowOf(p))]
  },
  deleteERModelRelationship: (a) => [editOf(a.urn, 'DELETE_ENTITY')],
  createForm: FORMS('create'),
  updateForm: FORMS('update'),
  deleteForm: FORMS('delete'),
  batchAssignForm: () => platform('MANAGE_DOCUMENTATION_FORMS'),
  batchRemoveForm: () => platform('MANAGE_DOCUMENTATION_FORMS'),
  createDynamicFormAssignment: () => platform('MANAGE_DOCUMENTATION_FORMS'),
  // Checked by the resolvers: the caller must be assigned to the form on the asset.
  submitFormPrompt: open,
  verifyForm: open,
  createBusinessAttribute: () => platform('CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'),
  updateBusinessAttribute: () => platform('CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'),
  deleteBusinessAttribute: () => platform('MANAGE_BUSINESS_ATTRIBUTE'),
  addBusinessAttribute: COLUMN_ATTRIBUTES,
  removeBusinessAttribute: COLUMN_ATTRIBUTES,
  createTest: TESTS,
  updateTest: TESTS,
  deleteTest: TESTS,
  createStructuredProperty: PROPERTIES_ADMIN('create'),
  updateStructuredProperty: PROPERTIES_ADMIN('update'),
  deleteStructuredProperty: PROPERTIES_ADMIN('delete'),
  updateGlobalViewsSettings: () => platform('MANAGE_GLOBAL_VIEWS'),
  createView,
  updateView,
  deleteView: updateView,
  updateDocPropagationSettings: () => platform('MANAGE_GLOBAL_SETTINGS'),
  updateApplicationsSettings: () => platform('MANAGE_FEATURES'),
  upsertPageTemplate: HOME_PAGE('templates'),
  upsertPageModule: HOME_PAGE('modules'),
  // Checked by the resolvers, in DataHub's order: defaults, existence, scope, creator.
  deletePageTemplate: open,
  deletePageModule: open,
  updateAssetSettings: async (a): Promise<MutationCheck> => ({
    requirements: [editOf(input(a).urn, 'MANAGE_ASSET_SUMMARY')],
    message: `Unauthorized to modify assetSettings on entity: ${strOf(input(a).urn)}`,
  }),
  // DataHub's resolver checks nothing; its write of `status` needs EDIT_ENTITY on the asset.
  setLifecycleStage: (a) => [editOf(a.urn, 'EDIT_ENTITY')],
  // DataHub's LogicalParentAuthorizationValidator: EDIT_ENTITY on the child and on a new parent
  // (a column's on its dataset).
  setLogicalParent: (a) => {
    const i = input(a)
    return [i.resourceUrn, ...(i.parentUrn != null ? [i.parentUrn] : [])].map((u) =>
      editOf(fieldParent(u), 'EDIT_ENTITY'),
    )
  },
  linkPhysicalChild: (a) =>
    [input(a).childUrn, input(a).logicalParentUrn].map((u) => editOf(u, 'EDIT_ENTITY')),
  unlinkPhysicalChild: (a) => [editOf(input(a).childUrn, 'EDIT_ENTITY')],
  createLogicalModel: async (): Promise<MutationCheck> => ({
    requirements: platform('CREATE_LOGICAL_MODELS'),
    message: 'Unauthorized to create logical models. Please contact your DataHub administrator.',
  }),
  updateLogicalModelSchema: async (): Promise<MutationCheck> => ({
    requirements: platform('CREATE_LOGICAL_MODELS'),
    message: 'Unauthorized to edit logical models. Please contact your DataHub administrator.',
  }),
  // DataHub's document privileges: MANAGE_DOCUMENTS, or EDIT_ENTITY (DELETE_ENTITY) on the document.
  createDocument: () => platform('MANAGE_DOCUMENTS'),
  updateDocumentContents: DOCUMENT_EDIT,
  updateDocumentRelatedEntities: DOCUMENT_EDIT,
  moveDocument: DOCUMENT_EDIT,
  updateDocumentStatus: DOCUMENT_EDIT,
  updateDocumentSubType: DOCUMENT_EDIT,
  updateDocumentSettings: DOCUMENT_EDIT,
  deleteDocument: (a) => managedOr('MANAGE_DOCUMENTS', a.urn, 'DELETE_ENTITY'),
  importDocumentsFromFiles: async (): Promise<MutationCheck> => ({
    requirements: platform('MANAGE_DOCUMENTS'),
    message: 'Unauthorized to import documents. Requires MANAGE_DOCUMENTS privilege.',
  }),
  createServiceAccount: SERVICE_ACCOUNTS('create'),
  deleteServiceAccount: SERVICE_ACCOUNTS('delete'),
  updateServiceAccountDefaultView: SERVICE_ACCOUNTS('manage'),
}

/** The mutation names with a rule (the rest fail closed). */
export const MUTATIONS_WITH_RULES: readonly string[] = Object.keys(RULES)

/**
 * What the mutation `name` called with `args` needs. A mutation without a rule needs
 * MANAGE_POLICIES: whoever holds it can grant itself any privilege, so only they may run a
 * mutation whose rule is not known (fail closed).
 */
export async function mutationCheck(name: string, args: Args, facts: MutationFacts): Promise<MutationCheck> {
  const rule = Object.hasOwn(RULES, name) ? RULES[name] : undefined
  if (!rule) return { requirements: POLICIES() }
  const out = await rule(args, facts)
  return Array.isArray(out) ? { requirements: out } : (out as MutationCheck)
}
