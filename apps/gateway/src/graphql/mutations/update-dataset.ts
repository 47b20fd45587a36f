import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { systemOwnershipTypeUrn } from '../mappers/common.js'
import { resolveInput, stampOf, upsert, write } from './support.js'

export interface OwnerUpdate {
  readonly owner: string
  readonly type?: string | null
  readonly ownershipTypeUrn?: string | null
}

export interface GlobalTagsUpdate {
  readonly tags?: ReadonlyArray<{ readonly tag: { readonly urn: string } }> | null
}

interface DatasetUpdateInput {
  readonly ownership?: { readonly owners: readonly OwnerUpdate[] } | null
  readonly deprecation?: { deprecated: boolean; decommissionTime?: number | null; note: string } | null
  readonly institutionalMemory?: {
    readonly elements: ReadonlyArray<{
      url: string
      description?: string | null
      author: string
      createdAt?: number | null
    }>
  } | null
  readonly globalTags?: GlobalTagsUpdate | null
  readonly tags?: GlobalTagsUpdate | null
  readonly editableSchemaMetadata?: {
    readonly editableSchemaFieldInfo: ReadonlyArray<{
      fieldPath: string
      description?: string | null
      globalTags?: GlobalTagsUpdate | null
    }>
  } | null
  readonly editableProperties?: { description: string; name?: string | null } | null
}

/** DataHub's GlobalTagsUpdate as the `globalTags` aspect. */
export function tagsValue(update: GlobalTagsUpdate): AspectValue {
  return { tags: (update.tags ?? []).map((t) => ({ tag: t.tag.urn })) }
}

/** DataHub's OwnerUpdateMapper: a type URN makes a CUSTOM owner; a legacy type maps to its system type URN. */
export function ownerValue(o: OwnerUpdate): AspectValue {
  if (o.ownershipTypeUrn) return { owner: o.owner, type: 'CUSTOM', typeUrn: o.ownershipTypeUrn }
  const type = o.type ?? 'NONE'
  return { owner: o.owner, type, typeUrn: systemOwnershipTypeUrn(type) }
}

/** The dataset `urn` of an update input; a 400 for a malformed URN or another entity type. */
function datasetRef(ctx: CatalogContext, urn: string): EntityRef {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'dataset') throw new InvalidInputError(`Invalid urn ${urn}: expected a dataset urn`)
  return ref
}

/** DataHub's DatasetUpdateInputMapper: each input section replaces one whole aspect. */
function datasetProposals(
  ctx: CatalogContext,
  ref: EntityRef,
  input: DatasetUpdateInput,
): MetadataProposal[] {
  const stamp = stampOf(ctx)
  const proposals: MetadataProposal[] = []
  if (input.ownership) {
    proposals.push(
      upsert(ref, 'ownership', { owners: input.ownership.owners.map(ownerValue), lastModified: stamp }),
    )
  }
  if (input.deprecation) {
    const d = input.deprecation
    proposals.push(
      upsert(ref, 'datasetDeprecation', {
        deprecated: d.deprecated,
        note: d.note,
        actor: ctx.actor,
        ...(d.decommissionTime != null ? { decommissionTime: d.decommissionTime } : {}),
      }),
    )
  }
  if (input.institutionalMemory) {
    proposals.push(
      upsert(ref, 'institutionalMemory', {
        elements: input.institutionalMemory.elements.map((e) => ({
          url: e.url,
          description: e.description ?? '',
          createStamp: { time: e.createdAt ?? stamp.time, actor: e.author },
        })),
      }),
    )
  }
  const tags = input.globalTags ?? input.tags
  if (tags) proposals.push(upsert(ref, 'globalTags', tagsValue(tags)))
  if (input.editableSchemaMetadata) {
    proposals.push(
      upsert(ref, 'editableSchemaMetadata', {
        created: stamp,
        lastModified: stamp,
        editableSchemaFieldInfo: input.editableSchemaMetadata.editableSchemaFieldInfo.map((f) => ({
          fieldPath: f.fieldPath,
          ...(f.description != null ? { description: f.description } : {}),
          ...(f.globalTags ? { globalTags: tagsValue(f.globalTags) } : {}),
        })),
      }),
    )
  }
  if (input.editableProperties) {
    const p = input.editableProperties
    proposals.push(
      upsert(ref, 'editableDatasetProperties', {
        description: p.description,
        ...(p.name != null ? { name: p.name } : {}),
        created: stamp,
        lastModified: stamp,
      }),
    )
  }
  return proposals
}

/**
 * DataHub's `updateDataset`: like DataHub it does not require the dataset to exist. Returns the
 * dataset, re-read.
 */
async function updateDataset(
  _: unknown,
  { urn, input }: { urn: string; input: DatasetUpdateInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const ref = datasetRef(ctx, urn)
  await write(ctx, datasetProposals(ctx, ref, input))
  return { urn: ref.urn }
}

/**
 * DataHub's `updateDatasets` (DatasetType.batchUpdate): every URN is checked first, then all
 * updates are one atomic write. Returns the datasets in input order.
 */
async function updateDatasets(
  _: unknown,
  { input }: { input: ReadonlyArray<{ urn: string; update: DatasetUpdateInput }> },
  ctx: CatalogContext,
): Promise<EntitySource[]> {
  const refs = input.map((u) => datasetRef(ctx, u.urn))
  await write(
    ctx,
    input.flatMap((u, i) => datasetProposals(ctx, refs[i] as EntityRef, u.update)),
  )
  return refs.map((ref) => ({ urn: ref.urn }))
}

export const datasetMutations = { updateDataset, updateDatasets }
