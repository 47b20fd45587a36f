import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'
import { listEntities } from '../users-groups.js'

/** How many entities of `entityType` have `parent` as their parent node (their search field). */
async function childrenOf(ctx: CatalogContext, entityType: string, parent: string): Promise<number> {
  const page = await listEntities(ctx, entityType, {
    start: 0,
    count: 0,
    orFilters: [{ and: [{ field: 'parentNode', values: [parent] }] }],
  })
  return page.total
}

/** `GlossaryNode.childrenCount`: the terms and the nodes directly under the node. */
export async function glossaryChildrenCount(source: EntitySource, _args: unknown, ctx: CatalogContext) {
  const [termsCount, nodesCount] = await Promise.all([
    childrenOf(ctx, 'glossaryTerm', source.urn),
    childrenOf(ctx, 'glossaryNode', source.urn),
  ])
  return { termsCount, nodesCount }
}
