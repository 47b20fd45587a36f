import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { currentAspect, resolveInput, stampOf, write } from './support.js'
import { type SubResourceType, validateField } from './validate.js'

/** Where each entity type keeps its editable description (DataHub's DescriptionUtils). */
interface DescriptionTarget {
  readonly aspect: string
  readonly field: string
  /** The aspect to start from when the entity has none (required members filled). */
  readonly initial?: (ref: EntityRef) => AspectValue
}

const editable = (aspect: string): DescriptionTarget => ({ aspect, field: 'description' })

const TARGETS: Readonly<Record<string, DescriptionTarget>> = {
  dataset: editable('editableDatasetProperties'),
  container: editable('editableContainerProperties'),
  chart: editable('editableChartProperties'),
  dashboard: editable('editableDashboardProperties'),
  dataFlow: editable('editableDataFlowProperties'),
  dataJob: editable('editableDataJobProperties'),
  corpGroup: editable('corpGroupEditableInfo'),
  mlModel: editable('editableMlModelProperties'),
  mlModelGroup: editable('editableMlModelGroupProperties'),
  mlFeature: editable('editableMlFeatureProperties'),
  mlPrimaryKey: editable('editableMlPrimaryKeyProperties'),
  mlFeatureTable: editable('editableMlFeatureTableProperties'),
  tag: { aspect: 'tagProperties', field: 'description', initial: (ref) => ({ name: ref.key.name }) },
  domain: { aspect: 'domainProperties', field: 'description', initial: (ref) => ({ name: ref.key.id }) },
  glossaryTerm: {
    aspect: 'glossaryTermInfo',
    field: 'definition',
    initial: () => ({ definition: '', termSource: 'INTERNAL' }),
  },
  glossaryNode: { aspect: 'glossaryNodeInfo', field: 'definition', initial: () => ({ definition: '' }) },
  businessAttribute: {
    aspect: 'businessAttributeInfo',
    field: 'description',
    initial: (ref) => ({ fieldPath: ref.key.id, name: ref.key.id }),
  },
}

interface DescriptionUpdateInput {
  readonly description: string
  readonly resourceUrn: string
  readonly subResourceType?: SubResourceType | null
  readonly subResource?: string | null
}

/**
 * DataHub's UpdateDescriptionResolver: a dataset field's description (DATASET_FIELD) goes
 * to `editableSchemaMetadata`, everything else to the entity's editable description aspect.
 */
async function updateDescription(
  _: unknown,
  { input }: { input: DescriptionUpdateInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const ref = resolveInput(ctx, input.resourceUrn)
  const target = TARGETS[ref.entity.name]
  if (!target || !ctx.registry.hasAspect(ref.entity, target.aspect)) {
    throw new InvalidInputError(
      `Failed to update description. Unsupported resource type ${ref.urn} provided.`,
    )
  }
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`Failed to update ${ref.urn}. ${ref.urn} does not exist.`)
  }
  if (ref.entity.name === 'dataset' && input.subResourceType === 'DATASET_FIELD') {
    const fieldPath = input.subResource ?? ''
    if (fieldPath.length === 0) {
      throw new InvalidInputError(
        `Failed to update resource with urn ${ref.urn}. SubResourceType (DATASET_FIELD) provided without a subResource.`,
      )
    }
    await validateField(ctx, ref, fieldPath)
    // A PATCH of the one field's entry: concurrent edits of other fields, or of this field's
    // tags and terms, are kept.
    const ops: PatchOp[] = [
      {
        op: 'add',
        path: pointer('editableSchemaFieldInfo', fieldPath, 'description'),
        value: input.description,
      },
      { op: 'add', path: pointer('lastModified'), value: stampOf(ctx) },
    ]
    await write(ctx, [patch(ref, 'editableSchemaMetadata', ops)])
    return true
  }
  // A PATCH of the one member, so a concurrent edit of another member (a name) is kept; what
  // a missing aspect needs (its required members, `created`) is read first and added.
  const current = await currentAspect(ctx, ref.urn, target.aspect)
  const stamp = stampOf(ctx)
  const ops: PatchOp[] = []
  if (!current) {
    for (const [member, value] of Object.entries(target.initial?.(ref) ?? {})) {
      ops.push({ op: 'add', path: pointer(member), value })
    }
  }
  ops.push({ op: 'add', path: pointer(target.field), value: input.description })
  if (!current?.created) ops.push({ op: 'add', path: pointer('created'), value: stamp })
  ops.push({ op: 'add', path: pointer('lastModified'), value: stamp })
  await write(ctx, [patch(ref, target.aspect, ops)])
  return true
}

export const descriptionMutations = { updateDescription }
