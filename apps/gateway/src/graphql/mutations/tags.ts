import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { changeLabels, TAG } from './labels.js'
import { creatorOwnership, resolveInput, upsert, write } from './support.js'
import type { ResourceRef } from './validate.js'

interface TagAssociationInput extends ResourceRef {
  readonly tagUrn: string
}

interface AddTagsInput extends ResourceRef {
  readonly tagUrns: readonly string[]
}

interface BatchTagsInput {
  readonly tagUrns: readonly string[]
  readonly resources: ReadonlyArray<ResourceRef | null>
}

interface CreateTagInput {
  readonly id?: string | null
  readonly name: string
  readonly description?: string | null
}

/**
 * DataHub's AddTag(s)/RemoveTag/BatchAddTags/BatchRemoveTags resolvers, each one atomic PATCH of
 * `globalTags` (or of the field's entry in `editableSchemaMetadata`) per resource; and `createTag`.
 */
export const tagMutations = {
  addTag: (_: unknown, { input }: { input: TagAssociationInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TAG, [input], [input.tagUrn], []),

  addTags: (_: unknown, { input }: { input: AddTagsInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TAG, [input], input.tagUrns, []),

  removeTag: (_: unknown, { input }: { input: TagAssociationInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TAG, [input], [], [input.tagUrn]),

  batchAddTags: (_: unknown, { input }: { input: BatchTagsInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TAG, input.resources, input.tagUrns, []),

  batchRemoveTags: (_: unknown, { input }: { input: BatchTagsInput }, ctx: CatalogContext) =>
    changeLabels(ctx, TAG, input.resources, [], input.tagUrns),

  /** DataHub's CreateTagResolver: refuses an existing id; the creator becomes a technical owner. */
  async createTag(_: unknown, { input }: { input: CreateTagInput }, ctx: CatalogContext): Promise<string> {
    const id = input.id ?? randomUUID()
    const tag = resolveInput(ctx, `urn:li:tag:${id}`)
    if (await ctx.client.exists(tag.urn)) throw new InvalidInputError('This Tag already exists!')
    const properties: AspectValue = { name: input.name }
    if (input.description != null) properties.description = input.description
    await write(ctx, [
      upsert(tag, 'tagProperties', properties),
      upsert(tag, 'ownership', creatorOwnership(ctx)),
    ])
    return tag.urn
  },
}
