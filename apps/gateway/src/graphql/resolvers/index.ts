import type { GraphQLSchema } from 'graphql'
import { accessTokenMutations, accessTokenQueries } from '../mutations/access-tokens.js'
import { applicationMutations, applicationQueries } from '../mutations/applications.js'
import { assertionMutations } from '../mutations/assertions.js'
import { businessAttributeMutations, businessAttributeQueries } from '../mutations/business-attributes.js'
import { connectionMutations, connectionQueries } from '../mutations/connections.js'
import { corpPropertyMutations } from '../mutations/corp-properties.js'
import { dataContractMutations } from '../mutations/data-contracts.js'
import { dataProductAssetQueries } from '../mutations/data-product-assets.js'
import { dataProductMutations, dataProductQueries } from '../mutations/data-products.js'
import { deprecationMutations } from '../mutations/deprecation.js'
import { descriptionMutations } from '../mutations/description.js'
import { documentMutations, documentQueries } from '../mutations/documents.js'
import { domainAdminMutations } from '../mutations/domain-admin.js'
import { domainMutations } from '../mutations/domains.js'
import { embedDisplayMutations } from '../mutations/embed-display.js'
import { erModelMutations } from '../mutations/er-models.js'
import { formActorResolvers, formMutations, formQueries } from '../mutations/forms.js'
import { globalSettingsMutations } from '../mutations/global-settings.js'
import { glossaryMutations } from '../mutations/glossary.js'
import { glossaryRelationMutations } from '../mutations/glossary-relations.js'
import { groupMutations } from '../mutations/groups.js'
import { incidentMutations } from '../mutations/incidents.js'
import { ingestionMutations, secretMutations } from '../mutations/ingestion.js'
import { lifecycleStageMutations, lifecycleStageQueries } from '../mutations/lifecycle-stages.js'
import { lineageEditMutations } from '../mutations/lineage-edit.js'
import { linkMutations } from '../mutations/links.js'
import { logicalModelMutations } from '../mutations/logical-models.js'
import { nativeUserMutations, nativeUserQueries } from '../mutations/native-users.js'
import { ownerMutations } from '../mutations/owners.js'
import { ownershipTypeMutations } from '../mutations/ownership-types.js'
import { pageTemplateMutations } from '../mutations/page-templates.js'
import { patchEntityMutations } from '../mutations/patch-entity.js'
import { policyMutations } from '../mutations/policies.js'
import { postMutations } from '../mutations/posts.js'
import { queryMutations } from '../mutations/queries.js'
import { operationMutations } from '../mutations/report-operation.js'
import { serviceAccountMutations, serviceAccountQueries } from '../mutations/service-accounts.js'
import { softDeleteMutations } from '../mutations/soft-delete.js'
import { stepStateMutations } from '../mutations/step-states.js'
import { structuredPropertyValueMutations } from '../mutations/structured-properties.js'
import { structuredPropertyDefinitionMutations } from '../mutations/structured-property-definitions.js'
import { tagAdminMutations } from '../mutations/tag-admin.js'
import { tagMutations } from '../mutations/tags.js'
import { termMutations } from '../mutations/terms.js'
import { testMutations, testQueries } from '../mutations/tests.js'
import { datasetMutations } from '../mutations/update-dataset.js'
import { entityUpdateMutations } from '../mutations/update-entities.js'
import { nameMutations } from '../mutations/update-name.js'
import { userSettingMutations } from '../mutations/user-settings.js'
import { versionSetMutations } from '../mutations/version-sets.js'
import { viewMutations } from '../mutations/views.js'
import { LongScalar } from '../scalars.js'
import { accessTokenListQueries } from './access-tokens.js'
import { analyticsQueries } from './analytics.js'
import { appConfigQueries } from './app-config.js'
import { autocompleteQueries } from './autocomplete.js'
import { browseQueries } from './browse.js'
import { browseV2Queries } from './browse-v2.js'
import { debugAccessQueries } from './debug-access.js'
import { domainQueries } from './domains.js'
import { abstractTypeResolvers, entityFieldResolvers, entityQueries, type Resolvers } from './entities.js'
import { entityRelationships } from './entity-fields/relationships.js'
import { globalSettingsQueries } from './global-settings.js'
import { glossaryRootQueries } from './glossary-roots.js'
import { ingestionQueries } from './ingestion.js'
import { lineageQueries } from './lineage.js'
import { meQueries } from './me.js'
import { notServedResolvers } from './not-served.js'
import { ownershipTypeQueries } from './ownership-types.js'
import { policyQueries } from './policies.js'
import { postQueries } from './posts.js'
import { productUpdateQueries } from './product-update.js'
import { queryQueries } from './queries.js'
import { quickFilterQueries } from './quick-filters.js'
import { recommendationQueries } from './recommendations.js'
import { schemaHistoryQueries } from './schema-history.js'
import { searchQueries } from './search.js'
import { stepStateQueries } from './step-states.js'
import { structuredPropertyEntityResolvers, structuredPropertyQueries } from './structured-property-entity.js'
import { timelineQueries } from './timeline.js'
import { userGroupQueries } from './users-groups.js'
import { versionedDatasetQueries } from './versioned-dataset.js'
import { viewQueries } from './views.js'

/** Every resolver of the GraphQL API, for DataHub's `schema`. */
export function buildResolvers(schema: GraphQLSchema): Resolvers {
  const served: Resolvers = {
    Query: {
      ...entityQueries(),
      ...accessTokenQueries,
      ...nativeUserQueries,
      ...appConfigQueries,
      ...debugAccessQueries,
      ...connectionQueries,
      ...businessAttributeQueries,
      ...applicationQueries,
      ...formQueries,
      ...dataProductQueries,
      ...meQueries,
      ...stepStateQueries,
      ...searchQueries,
      ...autocompleteQueries,
      ...lineageQueries,
      ...browseQueries,
      ...browseV2Queries,
      ...viewQueries,
      ...postQueries,
      ...quickFilterQueries,
      ...recommendationQueries,
      ...userGroupQueries,
      ...domainQueries,
      ...queryQueries,
      ...globalSettingsQueries,
      ...policyQueries,
      ...structuredPropertyQueries,
      ...timelineQueries,
      ...schemaHistoryQueries,
      ...glossaryRootQueries,
      ...ownershipTypeQueries,
      ...productUpdateQueries,
      ...accessTokenListQueries,
      ...analyticsQueries,
      ...dataProductAssetQueries,
      ...testQueries,
      ...ingestionQueries,
      ...serviceAccountQueries,
      ...versionedDatasetQueries,
      ...lifecycleStageQueries,
      ...documentQueries,
    },
    Mutation: {
      ...datasetMutations,
      ...connectionMutations,
      ...businessAttributeMutations,
      ...applicationMutations,
      ...formMutations,
      ...erModelMutations,
      ...descriptionMutations,
      ...tagMutations,
      ...termMutations,
      ...ownerMutations,
      ...linkMutations,
      ...domainMutations,
      ...glossaryMutations,
      ...nameMutations,
      ...deprecationMutations,
      ...accessTokenMutations,
      ...nativeUserMutations,
      ...viewMutations,
      ...postMutations,
      ...groupMutations,
      ...policyMutations,
      ...dataProductMutations,
      ...structuredPropertyValueMutations,
      ...structuredPropertyDefinitionMutations,
      ...corpPropertyMutations,
      ...userSettingMutations,
      ...stepStateMutations,
      ...embedDisplayMutations,
      ...ownershipTypeMutations,
      ...lineageEditMutations,
      ...softDeleteMutations,
      ...entityUpdateMutations,
      ...tagAdminMutations,
      ...domainAdminMutations,
      ...glossaryRelationMutations,
      ...assertionMutations,
      ...incidentMutations,
      ...patchEntityMutations,
      ...testMutations,
      ...ingestionMutations,
      ...secretMutations,
      ...versionSetMutations,
      ...dataContractMutations,
      ...operationMutations,
      ...queryMutations,
      ...globalSettingsMutations,
      ...serviceAccountMutations,
      ...pageTemplateMutations,
      ...lifecycleStageMutations,
      ...logicalModelMutations,
      ...documentMutations,
    },
  }
  const missing = notServedResolvers(schema, served)
  return {
    Long: LongScalar as unknown as Record<string, unknown>,
    Query: { ...missing.Query, ...served.Query },
    Mutation: { ...missing.Mutation, ...served.Mutation },
    ...entityFieldResolvers(schema),
    ...abstractTypeResolvers(schema),
    StructuredPropertyEntity: structuredPropertyEntityResolvers,
    FormActorAssignment: formActorResolvers,
    ServiceAccount: { relationships: entityRelationships },
  }
}
