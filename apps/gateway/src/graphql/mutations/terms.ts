import type { CatalogContext } from '../context.js'
import { changeLabels, TERM } from './labels.js'
import type { ResourceRef } from './validate.js'

interface TermAssociationInput extends ResourceRef {
  readonly termUrn: string
}

interface AddTermsInput extends ResourceRef {
  readonly termUrns: readonly string[]
}

interface BatchTermsInput {
  readonly termUrns: readonly string[]
  readonly resources: ReadonlyArray<ResourceRef | null>
}

/**
 * DataHub's AddTerm(s)/RemoveTerm/BatchAddTerms/BatchRemoveTerms resolvers: each one atomic
 * PATCH of `glossaryTerms` (or of the field's entry in `editableSchemaMetadata`) per resource,
 * stamped with the caller.
 */
export const termMutations = {
  addTerm: (_: unknown, { input }: { input: TermAssociationInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TERM, [input], [input.termUrn], []),

  addTerms: (_: unknown, { input }: { input: AddTermsInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TERM, [input], input.termUrns, []),

  removeTerm: (_: unknown, { input }: { input: TermAssociationInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TERM, [input], [], [input.termUrn]),

  batchAddTerms: (_: unknown, { input }: { input: BatchTermsInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TERM, input.resources, input.termUrns, []),

  batchRemoveTerms: (_: unknown, { input }: { input: BatchTermsInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TERM, input.resources, [], input.termUrns),
}
