import { GMS_COMPAT_VERSION } from '../../routes/config.js'
import type { CatalogContext } from '../context.js'
import { globalSettingsOf } from './global-settings.js'

/**
 * `appConfig`: DataHub's `AppConfig`, filled with what is true of this catalog. A feature it
 * does not have answers false or empty (never what DataHub's defaults would claim); the UI
 * then hides the page or button instead of failing on a call this catalog cannot answer.
 */
async function appConfig(_: unknown, __: unknown, ctx: CatalogContext) {
  const applications = (await globalSettingsOf(ctx))?.applications as { enabled?: unknown } | undefined
  return {
    // The version `/config` reports, so the UI and the clients see the same server.
    appVersion: GMS_COMPAT_VERSION,
    authConfig: { tokenAuthEnabled: ctx.authEnabled },
    analyticsConfig: { enabled: false },
    // No authorizer yet: every valid token acts as an admin (see `me`), so no policies to manage.
    policiesConfig: { enabled: false, platformPrivileges: [], resourcePrivileges: [] },
    identityManagementConfig: { enabled: false },
    managedIngestionConfig: { enabled: false },
    // Multi-hop lineage search (searchAcrossLineage, scrollAcrossLineage) is served.
    lineageConfig: { supportsImpactAnalysis: true },
    visualConfig: {
      logoUrl: null,
      faviconUrl: null,
      appTitle: null,
      hideGlossary: false,
      queriesTab: null,
      entityProfiles: null,
      searchResult: null,
      showFullTitleInLineage: false,
      theme: null,
      // DataHub's AppConfigResolver: the applications section of the global settings (off unset).
      application: {
        showApplicationInNavigation: applications?.enabled === true,
        showSidebarSectionWhenEmpty: applications?.enabled === true,
      },
    },
    telemetryConfig: { enableThirdPartyLogging: false },
    testsConfig: { enabled: false },
    // Views apply to search, counts, browse, autocomplete and lineage search, as DataHub's do.
    viewsConfig: { enabled: true },
    // The search bar asks autoCompleteForMultiple, which is served (DataHub's default too).
    searchBarConfig: { apiVariant: 'AUTOCOMPLETE_FOR_MULTIPLE' },
    searchCardConfig: { showDescription: false },
    searchFlagsConfig: { defaultSkipHighlighting: false },
    homePageConfig: { firstInPersonalSidebar: 'YOUR_ASSETS' },
    featureFlags: featureFlags(),
    chromeExtensionConfig: { enabled: false, lineageEnabled: false },
    semanticSearchConfig: null,
  }
}

/**
 * Every flag false except those naming what this catalog serves: autocomplete results, and
 * browse v2 (`browseV2` over `browsePathsV2`, which every new entity gets by default as in DataHub),
 * several data products per asset (`batchAddToDataProducts` / `batchRemoveFromDataProducts`), and
 * business attributes (their pages, and their columns' `schemaFieldEntity.businessAttributes`), and
 * the datasets' Relationships tab (ER model relationships), context documents and logical models.
 */
const SERVED_FLAGS: ReadonlySet<string> = new Set([
  'showAutoCompleteResults',
  'showBrowseV2',
  'multipleDataProductsPerAsset',
  'businessAttributeEntityEnabled',
  'erModelRelationshipFeatureEnabled',
  'contextDocumentsEnabled',
  'logicalModelsEnabled',
])

function featureFlags(): Record<string, boolean> {
  return Object.fromEntries(FLAGS.map((f) => [f, SERVED_FLAGS.has(f)]))
}

const FLAGS = [
  'readOnlyModeEnabled',
  'showSearchFiltersV2',
  'showBrowseV2',
  'platformBrowseV2',
  'lineageGraphV2',
  'showAcrylInfo',
  'erModelRelationshipFeatureEnabled',
  'showAccessManagement',
  'nestedDomainsEnabled',
  'businessAttributeEntityEnabled',
  'dataContractsEnabled',
  'editableDatasetNameEnabled',
  'themeV2Enabled',
  'themeV2Default',
  'themeV2Toggleable',
  'schemaFieldCLLEnabled',
  'showSeparateSiblings',
  'showManageStructuredProperties',
  'hideDbtSourceInLineage',
  'schemaFieldLineageIgnoreStatus',
  'showNavBarRedesign',
  'showAutoCompleteResults',
  'entityVersioningEnabled',
  'showHasSiblingsFilter',
  'showSearchBarAutocompleteRedesign',
  'showManageTags',
  'showIntroducePage',
  'showIngestionPageRedesign',
  'showLineageExpandMore',
  'showStatsTabRedesign',
  'showLineageFilterNodes',
  'showHomePageRedesign',
  'showProductUpdates',
  'lineageGraphV3',
  'logicalModelsEnabled',
  'showHomepageUserRole',
  'showDefaultExternalLinks',
  'assetSummaryPageV1',
  'datasetSummaryPageV1',
  'metricsEnabled',
  'ingestionOnboardingRedesignV1',
  'documentationFileUploadV1',
  'multipleDataProductsPerAsset',
  'glossaryBasedPoliciesEnabled',
  'contextDocumentsEnabled',
  'hideLineageInSearchCards',
  'dataProductLineageEnabled',
  'showTestsInHealthIcon',
  'i18nEnabled',
  'browserTracingEnabled',
  'browserWebVitalsEnabled',
] as const

/** Root app-shell query. */
export const appConfigQueries = { appConfig }
