import type { CatalogContext } from '../context.js'

/** DataHub's `PlatformPrivileges` fields. */
const PRIVILEGES = [
  'viewAnalytics',
  'managePolicies',
  'manageIdentities',
  'generatePersonalAccessTokens',
  'createDomains',
  'createLogicalModels',
  'manageDomains',
  'manageIngestion',
  'manageSecrets',
  'manageTokens',
  'viewTests',
  'manageTests',
  'manageGlossaries',
  'manageDocuments',
  'manageUserCredentials',
  'createTags',
  'manageTags',
  'viewManageTags',
  'manageGlobalViews',
  'manageGlobalSettings',
  'manageOwnershipTypes',
  'manageGlobalAnnouncements',
  'createBusinessAttributes',
  'manageBusinessAttributes',
  'manageStructuredProperties',
  'viewStructuredPropertiesPage',
  'manageApplications',
  'manageFeatures',
  'manageHomePageTemplates',
  'manageServiceAccounts',
] as const

/**
 * `me`: the actor's CorpUser (read from the store when its fields are selected) and its
 * platform privileges. There is no authorizer yet: every valid token (and, with auth off, the
 * root user) may do everything, so every privilege is true. The authorization work replaces
 * this with the actor's policies.
 */
function me(_: unknown, __: unknown, ctx: CatalogContext) {
  return {
    corpUser: { urn: ctx.actor },
    platformPrivileges: Object.fromEntries(PRIVILEGES.map((p) => [p, true])),
  }
}

/** Root query of the signed-in user. */
export const meQueries = { me }
