import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { contractOf } from '../resolvers/entity-fields/data-contract.js'
import { resolveInput, typedRef, upsert, write } from './support.js'

interface ContractInput {
  readonly entityUrn: string
  readonly freshness?: ReadonlyArray<{ readonly assertionUrn: string }> | null
  readonly schema?: ReadonlyArray<{ readonly assertionUrn: string }> | null
  readonly dataQuality?: ReadonlyArray<{ readonly assertionUrn: string }> | null
  readonly state?: string | null
  readonly id?: string | null
}

/**
 * DataHub's UpsertDataContractResolver: the entity's contract (its existing one, else a new one of
 * the given id or a random one) made of the given assertions, ACTIVE unless a state is given. The
 * entity and every assertion must exist. Returns the contract.
 */
async function upsertDataContract(
  _: unknown,
  args: { urn?: string | null; input: ContractInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const { input } = args
  const entity = resolveInput(ctx, input.entityUrn)
  if (!(await ctx.client.exists(entity.urn))) {
    throw new InvalidInputError(`Provided entity with urn ${entity.urn} does not exist!`)
  }
  const kinds = ['freshness', 'schema', 'dataQuality'] as const
  for (const kind of kinds) {
    for (const a of input[kind] ?? []) {
      const assertion = typedRef(ctx, a.assertionUrn, 'assertion')
      if (!(await ctx.client.exists(assertion.urn))) {
        throw new InvalidInputError(`Provided assertion with urn ${assertion.urn} does not exist!`)
      }
    }
  }
  const existing = await contractOf(ctx, entity.urn)
  const contract = typedRef(
    ctx,
    existing ?? `urn:li:dataContract:${input.id ?? randomUUID()}`,
    'dataContract',
  )
  const properties: AspectValue = { entity: entity.urn }
  for (const kind of kinds) {
    const list = input[kind]
    if (list != null)
      properties[kind] = list.map((a) => ({ assertion: resolveInput(ctx, a.assertionUrn).urn }))
  }
  await write(ctx, [
    upsert(contract, 'dataContractProperties', properties),
    upsert(contract, 'dataContractStatus', { state: input.state ?? 'ACTIVE' }),
  ])
  return { urn: contract.urn }
}

export const dataContractMutations = { upsertDataContract }
