import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { systemOwnershipTypeUrn } from '../mappers/common.js'
import { writeWithReferences } from './entity-references.js'
import { patch } from './patch.js'
import { currentAspect, deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

interface TagUpdateInput {
  readonly urn: string
  readonly name: string
  readonly description?: string | null
}

/** A tag URN from input; anything else is refused before a write. */
function tagRef(ctx: CatalogContext, urn: string, what: string) {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'tag') throw new InvalidInputError(`Failed to ${what}. ${ref.urn} is not a tag.`)
  return ref
}

/**
 * DataHub's `TagType.update` (TagUpdateInputMapper): writes `tagProperties` {name, description}
 * whole and makes the caller the tag's sole owner (type NONE, source SERVICE), as DataHub does;
 * `input.ownership` is ignored there too. Returns the tag.
 */
async function updateTag(
  _: unknown,
  { urn, input }: { urn: string; input: TagUpdateInput },
  ctx: CatalogContext,
): Promise<{ urn: string }> {
  const tag = tagRef(ctx, urn, 'update Tag')
  const properties: AspectValue = { name: input.name }
  if (input.description != null) properties.description = input.description
  const ownership: AspectValue = {
    owners: [
      {
        owner: ctx.actor,
        type: 'NONE',
        typeUrn: systemOwnershipTypeUrn('NONE'),
        source: { type: 'SERVICE' },
      },
    ],
    lastModified: stampOf(ctx),
  }
  await write(ctx, [upsert(tag, 'ownership', ownership), upsert(tag, 'tagProperties', properties)])
  return { urn: tag.urn }
}

/**
 * DataHub's DeleteTagResolver: a hard delete of the tag, and of every reference to it
 * (`globalTags` of the entities it was applied to, field tags included), in one write.
 */
async function deleteTag(_: unknown, { urn }: { urn: string }, ctx: CatalogContext): Promise<boolean> {
  const tag = tagRef(ctx, urn, `perform delete against tag with urn ${urn}`)
  await writeWithReferences(ctx, tag, [deleteEntity(tag)])
  return true
}

/**
 * DataHub's SetTagColorResolver: the tag must exist; `tagProperties.colorHex` is set (the
 * properties default to `{name: <id>}`). One PATCH, so a concurrent rename is kept.
 */
async function setTagColor(
  _: unknown,
  { urn, colorHex }: { urn: string; colorHex: string },
  ctx: CatalogContext,
): Promise<boolean> {
  const tag = tagRef(ctx, urn, 'set Tag color')
  if (!(await ctx.client.exists(tag.urn))) {
    throw new InvalidInputError(`Failed to set Tag ${tag.urn} color. Tag does not exist.`)
  }
  const current = await currentAspect(ctx, tag.urn, 'tagProperties')
  const ops = [{ op: 'add' as const, path: '/colorHex', value: colorHex }]
  if (!current) ops.unshift({ op: 'add', path: '/name', value: tag.key.name ?? tag.urn })
  await write(ctx, [patch(tag, 'tagProperties', ops)])
  return true
}

export const tagAdminMutations = { updateTag, deleteTag, setTagColor }
