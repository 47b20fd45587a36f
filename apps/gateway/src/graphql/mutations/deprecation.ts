import { InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { resolveInput, schemaFieldUrn, upsert, write } from './support.js'
import { type ResourceRef, type SubResourceType, validateResource } from './validate.js'

interface DeprecationFields {
  readonly deprecated: boolean
  readonly decommissionTime?: number | null
  readonly note?: string | null
  readonly replacement?: string | null
}

interface UpdateDeprecationInput extends DeprecationFields {
  readonly urn: string
  readonly subResourceType?: SubResourceType | null
  readonly subResource?: string | null
}

interface BatchUpdateDeprecationInput extends DeprecationFields {
  readonly resources: ReadonlyArray<ResourceRef | null>
}

/**
 * The `deprecation` aspect as DataHub writes it: `note` defaults to "", a null
 * `decommissionTime` or `replacement` is left out, `actor` is the caller.
 */
function deprecationValue(ctx: CatalogContext, input: DeprecationFields): AspectValue {
  const value: AspectValue = { deprecated: input.deprecated, note: input.note ?? '', actor: ctx.actor }
  if (input.decommissionTime != null) value.decommissionTime = input.decommissionTime
  if (input.replacement != null) value.replacement = resolveInput(ctx, input.replacement).urn
  return value
}

/** The entity a resource reference targets: the schemaField URN for a DATASET_FIELD sub-resource. */
async function deprecationTarget(ctx: CatalogContext, resource: ResourceRef): Promise<string> {
  const ref = await validateResource(ctx, resource)
  return resource.subResource ? schemaFieldUrn(ref.urn, resource.subResource) : ref.urn
}

/** DataHub's UpdateDeprecationResolver. */
async function updateDeprecation(
  _: unknown,
  { input }: { input: UpdateDeprecationInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const ref = resolveInput(ctx, input.urn)
  let target = ref.urn
  if (input.subResource || input.subResourceType) {
    target = await deprecationTarget(ctx, {
      resourceUrn: ref.urn,
      subResource: input.subResource ?? null,
      subResourceType: input.subResourceType ?? null,
    })
  } else if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`Failed to update deprecation for Entity ${ref.urn}. Entity does not exist.`)
  }
  const value = deprecationValue(ctx, input)
  await write(ctx, [upsert(resolveInput(ctx, target), 'deprecation', value)])
  return true
}

/** DataHub's BatchUpdateDeprecationResolver: every resource validated, then one atomic write. */
async function batchUpdateDeprecation(
  _: unknown,
  { input }: { input: BatchUpdateDeprecationInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const value = deprecationValue(ctx, input)
  const proposals: MetadataProposal[] = []
  for (const [i, resource] of input.resources.entries()) {
    if (!resource) throw new InvalidInputError(`Failed to batch update deprecation: resources[${i}] is null`)
    const target = await deprecationTarget(ctx, resource)
    proposals.push(upsert(resolveInput(ctx, target), 'deprecation', value))
  }
  await write(ctx, proposals)
  return true
}

export const deprecationMutations = { updateDeprecation, batchUpdateDeprecation }
