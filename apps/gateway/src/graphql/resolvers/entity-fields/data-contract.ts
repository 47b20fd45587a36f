import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'

const CONTRACT_FOR = 'ContractFor'

/** The contract of `entity` (an incoming `ContractFor` edge); DataHub takes the first. */
export async function contractOf(ctx: CatalogContext, entity: string): Promise<string | undefined> {
  const page = await ctx.client.relationships({
    urn: entity,
    direction: 'INCOMING',
    types: [CONTRACT_FOR],
    start: 0,
    count: 1,
  })
  return page.relationships[0]?.entity
}

/** `Dataset.contract`, as DataHub's EntityDataContractResolver: its contract; null without one. */
export async function datasetContract(source: EntitySource, _args: unknown, ctx: CatalogContext) {
  const urn = await contractOf(ctx, source.urn)
  return urn ? { urn } : null
}
