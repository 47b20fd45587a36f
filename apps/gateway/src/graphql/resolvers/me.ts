import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { existingTemplate } from '../mappers/page-template.js'
import { viewInfoOf } from './view-apply.js'
import { toView } from './views.js'

const SETTINGS_ASPECT = 'corpUserSettings'

/**
 * DataHub's `PlatformPrivileges` fields and the platform privileges (any one suffices) each
 * reports, as DataHub's `MeResolver` and `AuthorizationUtils` check them.
 */
const PRIVILEGES: Readonly<Record<string, readonly string[]>> = {
  viewAnalytics: ['VIEW_ANALYTICS'],
  managePolicies: ['MANAGE_POLICIES'],
  manageIdentities: ['MANAGE_USERS_AND_GROUPS'],
  generatePersonalAccessTokens: ['GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_ACCESS_TOKENS'],
  createDomains: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'],
  createLogicalModels: ['CREATE_LOGICAL_MODELS'],
  manageDomains: ['MANAGE_DOMAINS'],
  manageIngestion: ['MANAGE_INGESTION'],
  manageSecrets: ['MANAGE_SECRETS'],
  manageTokens: ['MANAGE_ACCESS_TOKENS'],
  viewTests: ['VIEW_TESTS', 'MANAGE_TESTS'],
  manageTests: ['MANAGE_TESTS'],
  manageGlossaries: ['MANAGE_GLOSSARIES'],
  manageDocuments: ['MANAGE_DOCUMENTS'],
  manageUserCredentials: ['MANAGE_USER_CREDENTIALS'],
  createTags: ['CREATE_TAGS', 'MANAGE_TAGS'],
  manageTags: ['MANAGE_TAGS'],
  viewManageTags: ['VIEW_MANAGE_TAGS', 'MANAGE_TAGS'],
  manageGlobalViews: ['MANAGE_GLOBAL_VIEWS'],
  manageGlobalSettings: ['MANAGE_GLOBAL_SETTINGS'],
  manageOwnershipTypes: ['MANAGE_GLOBAL_OWNERSHIP_TYPES'],
  manageGlobalAnnouncements: ['MANAGE_GLOBAL_ANNOUNCEMENTS'],
  createBusinessAttributes: ['CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'],
  manageBusinessAttributes: ['MANAGE_BUSINESS_ATTRIBUTE'],
  manageStructuredProperties: ['MANAGE_STRUCTURED_PROPERTIES'],
  viewStructuredPropertiesPage: ['VIEW_STRUCTURED_PROPERTIES_PAGE', 'MANAGE_STRUCTURED_PROPERTIES'],
  manageApplications: ['MANAGE_APPLICATIONS'],
  manageFeatures: ['MANAGE_FEATURES'],
  manageHomePageTemplates: ['MANAGE_HOME_PAGE_TEMPLATES'],
  manageServiceAccounts: ['MANAGE_SERVICE_ACCOUNTS'],
}

const ALL = [...new Set(Object.values(PRIVILEGES).flat())]

/**
 * `me`: the actor's CorpUser (read from the store when its fields are selected) and the
 * platform privileges its policies grant it. With auth off every caller is the root user,
 * which holds them all.
 */
async function me(_: unknown, __: unknown, ctx: CatalogContext) {
  const granted = ctx.authorizer ? await ctx.authorizer.granted(ctx.actor, ALL) : new Set(ALL)
  return {
    corpUser: { urn: ctx.actor },
    platformPrivileges: Object.fromEntries(
      Object.entries(PRIVILEGES).map(([field, anyOf]) => [field, anyOf.some((p) => granted.has(p))]),
    ),
  }
}

/** A stored view by URN as DataHub's `DataHubView`, or null when it is gone (DataHub's batch load). */
export async function storedView(ctx: CatalogContext, urn: unknown) {
  if (typeof urn !== 'string') return null
  const info = await viewInfoOf(ctx, urn).catch(() => undefined)
  return info ? toView(ctx, urn, info) : null
}

/**
 * `CorpUser.settings`, DataHub's `CorpUserMapper.mapCorpUserSettings`: appearance always (not
 * simplified unless stored), views only when stored, the default view resolved to the view;
 * the home page's dismissed announcements and the locale as stored.
 */
export async function corpUserSettings(source: EntitySource, _: unknown, ctx: CatalogContext) {
  const found = (await ctx.client.getEntities([source.urn], [SETTINGS_ASPECT])).get(source.urn)
  const settings = (found?.aspects[SETTINGS_ASPECT] ?? {}) as AspectValue
  const appearance = (settings.appearance ?? {}) as AspectValue
  const views = settings.views as AspectValue | undefined
  const homePage = settings.homePage as AspectValue | undefined
  const locale = settings.locale as AspectValue | undefined
  return {
    appearance: {
      showSimplifiedHomepage: appearance.showSimplifiedHomepage === true,
      showThemeV2: typeof appearance.showThemeV2 === 'boolean' ? appearance.showThemeV2 : null,
    },
    views: views ? { defaultView: () => storedView(ctx, views.defaultView) } : null,
    homePage: homePage
      ? {
          pageTemplate: () => existingTemplate(homePage.pageTemplate, ctx.client),
          dismissedAnnouncementUrns: Array.isArray(homePage.dismissedAnnouncements)
            ? homePage.dismissedAnnouncements
            : null,
        }
      : null,
    locale: locale ? { language: typeof locale.language === 'string' ? locale.language : null } : null,
  }
}

/** Root query of the signed-in user. */
export const meQueries = { me }
