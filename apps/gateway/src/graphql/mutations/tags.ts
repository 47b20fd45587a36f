import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { systemOwnershipTypeUrn } from '../mappers/common.js'
import { currentAspect, editFieldInfo, resolveInput, stampOf, upsert, write } from './support.js'
import { type ResourceRef, validateLabel, validateResource } from './validate.js'

/** `tags` of a GlobalTags value with `add` appended (when missing) and `remove` dropped. */
function editTags(current: unknown, add: readonly string[], remove: readonly string[]): AspectValue {
  const value = (current ?? {}) as AspectValue
  let tags = (Array.isArray(value.tags) ? value.tags : []) as Array<{ tag?: unknown }>
  tags = tags.filter((t) => !remove.includes(t.tag as string))
  for (const tag of add) if (!tags.some((t) => t.tag === tag)) tags.push({ tag })
  return { ...value, tags }
}

/**
 * DataHub's AddTagsResolver / RemoveTagResolver: validates every tag (when adding) and the
 * resource, then edits `globalTags` of the resource, or the field's `globalTags` in
 * `editableSchemaMetadata` for a DATASET_FIELD sub-resource. The aspect is written even
 * when its list ends up empty, so a removal leaves `{tags: []}`.
 */
async function changeTags(
  ctx: CatalogContext,
  input: ResourceRef,
  add: readonly string[],
  remove: readonly string[],
): Promise<boolean> {
  for (const tag of add) await validateLabel(ctx, tag, 'tag')
  for (const tag of remove) resolveInput(ctx, tag)
  const resource = await validateResource(ctx, input)
  if (input.subResource) {
    const fieldPath = input.subResource
    const value = await editFieldInfo(ctx, resource.urn, fieldPath, (info) => ({
      ...info,
      globalTags: editTags(info.globalTags, add, remove),
    }))
    await write(ctx, [upsert(resource, 'editableSchemaMetadata', value)])
  } else {
    const current = await currentAspect(ctx, resource.urn, 'globalTags')
    await write(ctx, [upsert(resource, 'globalTags', editTags(current, add, remove))])
  }
  return true
}

interface TagAssociationInput extends ResourceRef {
  readonly tagUrn: string
}

interface AddTagsInput extends ResourceRef {
  readonly tagUrns: readonly string[]
}

interface CreateTagInput {
  readonly id?: string | null
  readonly name: string
  readonly description?: string | null
}

/** `addTag`, `addTags`, `removeTag` and `createTag`. */
export const tagMutations = {
  addTag: (_: unknown, { input }: { input: TagAssociationInput }, ctx: CatalogContext) =>
    changeTags(ctx, input, [input.tagUrn], []),

  addTags: (_: unknown, { input }: { input: AddTagsInput }, ctx: CatalogContext) =>
    changeTags(ctx, input, [...new Set(input.tagUrns)], []),

  removeTag: (_: unknown, { input }: { input: TagAssociationInput }, ctx: CatalogContext) =>
    changeTags(ctx, input, [], [input.tagUrn]),

  /** DataHub's CreateTagResolver: refuses an existing id; the creator becomes a technical owner. */
  async createTag(_: unknown, { input }: { input: CreateTagInput }, ctx: CatalogContext): Promise<string> {
    const id = input.id ?? randomUUID()
    const tag = resolveInput(ctx, `urn:li:tag:${id}`)
    if (await ctx.client.exists(tag.urn)) throw new InvalidInputError('This Tag already exists!')
    const properties: AspectValue = { name: input.name }
    if (input.description != null) properties.description = input.description
    await write(ctx, [
      upsert(tag, 'tagProperties', properties),
      upsert(tag, 'ownership', {
        owners: [
          {
            owner: ctx.actor,
            type: 'TECHNICAL_OWNER',
            typeUrn: systemOwnershipTypeUrn('TECHNICAL_OWNER'),
          },
        ],
        lastModified: stampOf(ctx),
      }),
    ])
    return tag.urn
  },
}
