import type { GraphQLSchema } from 'graphql'
import { accessTokenMutations, accessTokenQueries } from '../mutations/access-tokens.js'
import { deprecationMutations } from '../mutations/deprecation.js'
import { descriptionMutations } from '../mutations/description.js'
import { domainMutations } from '../mutations/domains.js'
import { glossaryMutations } from '../mutations/glossary.js'
import { groupMutations } from '../mutations/groups.js'
import { linkMutations } from '../mutations/links.js'
import { nativeUserMutations, nativeUserQueries } from '../mutations/native-users.js'
import { ownerMutations } from '../mutations/owners.js'
import { policyMutations } from '../mutations/policies.js'
import { postMutations } from '../mutations/posts.js'
import { tagMutations } from '../mutations/tags.js'
import { termMutations } from '../mutations/terms.js'
import { datasetMutations } from '../mutations/update-dataset.js'
import { nameMutations } from '../mutations/update-name.js'
import { viewMutations } from '../mutations/views.js'
import { LongScalar } from '../scalars.js'
import { appConfigQueries } from './app-config.js'
import { autocompleteQueries } from './autocomplete.js'
import { browseQueries } from './browse.js'
import { browseV2Queries } from './browse-v2.js'
import { abstractTypeResolvers, entityFieldResolvers, entityQueries, type Resolvers } from './entities.js'
import { lineageQueries } from './lineage.js'
import { meQueries } from './me.js'
import { notServedResolvers } from './not-served.js'
import { policyQueries } from './policies.js'
import { postQueries } from './posts.js'
import { quickFilterQueries } from './quick-filters.js'
import { recommendationQueries } from './recommendations.js'
import { searchQueries } from './search.js'
import { stepStateQueries } from './step-states.js'
import { userGroupQueries } from './users-groups.js'
import { viewQueries } from './views.js'

/** Every resolver of the GraphQL API, for DataHub's `schema`. */
export function buildResolvers(schema: GraphQLSchema): Resolvers {
  const served: Resolvers = {
    Query: {
      ...entityQueries(),
      ...accessTokenQueries,
      ...nativeUserQueries,
      ...appConfigQueries,
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
      ...policyQueries,
    },
    Mutation: {
      ...datasetMutations,
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
    },
  }
  const missing = notServedResolvers(schema, served)
  return {
    Long: LongScalar as unknown as Record<string, unknown>,
    Query: { ...missing.Query, ...served.Query },
    Mutation: { ...missing.Mutation, ...served.Mutation },
    ...entityFieldResolvers(schema),
    ...abstractTypeResolvers(schema),
  }
}
