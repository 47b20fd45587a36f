import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { searchOf } from './search.js'

interface GetRootGlossaryEntitiesInput {
  readonly start: number
  readonly count: number
}

/**
 * One page of the glossary entities of `entityType` with no parent node, as DataHub's
 * `GetRootGlossaryTermsResolver` / `GetRootGlossaryNodesResolver` filter the index
 * (`hasParentNode` = false); `count` is the number answered.
 */
async function rootPage(ctx: CatalogContext, entityType: string, input: GetRootGlossaryEntitiesInput) {
  const answer = await searchOf(ctx).searchAcrossEntities({
    input: '*',
    entities: [entityType],
    start: input.start,
    count: input.count,
    filter: { or: [{ and: [{ field: 'hasParentNode', values: ['false'], condition: 'EQUAL' }] }] },
    searchFlags: { skipAggregates: true, skipHighlighting: true },
  })
  const refs = answer.metadata.urns.map((urn): EntitySource => ({ urn }))
  return { refs, start: answer.from, count: refs.length, total: answer.numEntities }
}

/** Root queries of the glossary page: the top level of the glossary tree. */
export const glossaryRootQueries = {
  getRootGlossaryTerms: async (
    _: unknown,
    { input }: { input: GetRootGlossaryEntitiesInput },
    ctx: CatalogContext,
  ) => {
    const { refs, ...page } = await rootPage(ctx, 'glossaryTerm', input)
    return { ...page, terms: refs }
  },

  getRootGlossaryNodes: async (
    _: unknown,
    { input }: { input: GetRootGlossaryEntitiesInput },
    ctx: CatalogContext,
  ) => {
    const { refs, ...page } = await rootPage(ctx, 'glossaryNode', input)
    return { ...page, nodes: refs }
  },
}
