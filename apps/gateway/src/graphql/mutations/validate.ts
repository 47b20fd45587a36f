import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { resolveInput } from './support.js'

/** DataHub's `SubResourceType`. */
export type SubResourceType = 'DATASET_FIELD'

/** The fields of DataHub's `ResourceRefInput`. */
export interface ResourceRef {
  readonly resourceUrn: string
  readonly subResource?: string | null
  readonly subResourceType?: SubResourceType | null
}

/**
 * DataHub's `LabelUtils.validateLabel`: the label must be a URN of `entityType` that exists.
 * Messages are DataHub's, word for word.
 */
export async function validateLabel(
  ctx: CatalogContext,
  labelUrn: string,
  entityType: string,
): Promise<void> {
  const ref = resolveInput(ctx, labelUrn)
  if (ref.entity.name !== entityType) {
    throw new InvalidInputError(
      `Failed to validate label with urn ${labelUrn}. Urn type does not match entity type ${entityType}..`,
    )
  }
  if (!(await ctx.client.exists(labelUrn))) {
    throw new InvalidInputError(`Failed to validate label with urn ${labelUrn}. Urn does not exist.`)
  }
}

/**
 * DataHub's `LabelUtils.validateResource`: the resource must exist, `subResource` and
 * `subResourceType` come together, and a DATASET_FIELD sub-resource must be a field of the
 * dataset's schema. Returns the resolved resource.
 */
export async function validateResource(ctx: CatalogContext, input: ResourceRef): Promise<EntityRef> {
  const ref = resolveInput(ctx, input.resourceUrn)
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`Failed to update resource with urn ${ref.urn}. Entity does not exist.`)
  }
  const sub = input.subResource ?? ''
  if (sub.length > 0 || input.subResourceType) {
    if (sub.length === 0) {
      throw new InvalidInputError(
        `Failed to update resource with urn ${ref.urn}. SubResourceType (${input.subResourceType}) provided without a subResource.`,
      )
    }
    if (!input.subResourceType) {
      throw new InvalidInputError(
        `Failed to updates resource with urn ${ref.urn}. SubResource (${sub}) provided without a subResourceType.`,
      )
    }
    await validateField(ctx, ref, sub)
  }
  return ref
}

/**
 * The field must exist in the dataset's `schemaMetadata` (DataHub's `validateSubresourceExists`).
 * The metadata service answers from the stored text: the schema (up to 16 MB) is not read here.
 */
export async function validateField(ctx: CatalogContext, ref: EntityRef, fieldPath: string): Promise<void> {
  if (ref.entity.name !== 'dataset') {
    throw new InvalidInputError(
      `Failed to update ${ref.urn} & field ${fieldPath}. Only datasets have DATASET_FIELD sub-resources.`,
    )
  }
  const found = await ctx.client.schemaField(ref.urn, fieldPath)
  if (!found.hasSchema) {
    throw new InvalidInputError(`Failed to update ${ref.urn} & field ${fieldPath}. ${ref.urn} has no schema.`)
  }
  if (!found.hasField) {
    throw new InvalidInputError(
      `Failed to update ${ref.urn} & field ${fieldPath}. Field ${fieldPath} does not exist.`,
    )
  }
}
