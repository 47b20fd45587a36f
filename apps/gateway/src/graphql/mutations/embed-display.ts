import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { resolveInput, write } from './support.js'

interface UpdateEmbedInput {
  readonly urn: string
  readonly renderUrl?: string | null
}
interface DisplayPropertiesUpdateInput {
  readonly colorHex?: string | null
  readonly icon?: {
    readonly iconLibrary?: string | null
    readonly name?: string | null
    readonly style?: string | null
  } | null
}

/**
 * DataHub's `UpdateEmbedResolver`: the asset must exist; a given `renderUrl` replaces the stored
 * one (none keeps it), as a PATCH of `embed`.
 */
async function updateEmbed(_: unknown, { input }: { input: UpdateEmbedInput }, ctx: CatalogContext) {
  const ref = resolveInput(ctx, input.urn)
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(
      `Failed to update embed for entity with urn ${input.urn}. Entity does not exist!`,
    )
  }
  if (input.renderUrl != null) {
    await write(ctx, [patch(ref, 'embed', [{ op: 'add', path: '/renderUrl', value: input.renderUrl }])])
  }
  return true
}

/**
 * DataHub's `UpdateDisplayPropertiesResolver`: the entity must exist; a given colour and each
 * given icon field replace the stored ones, the rest is kept, as one PATCH of `displayProperties`.
 */
async function updateDisplayProperties(
  _: unknown,
  { urn, input }: { urn: string; input: DisplayPropertiesUpdateInput },
  ctx: CatalogContext,
) {
  const ref = resolveInput(ctx, urn)
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`Failed to update ${ref.urn}. ${ref.urn} does not exist.`)
  }
  const ops: PatchOp[] = []
  if (input.colorHex != null) ops.push({ op: 'add', path: '/colorHex', value: input.colorHex })
  for (const field of ['iconLibrary', 'name', 'style'] as const) {
    const value = input.icon?.[field]
    if (value != null) ops.push({ op: 'add', path: pointer('icon', field), value })
  }
  if (ops.length > 0) await write(ctx, [patch(ref, 'displayProperties', ops)])
  return true
}

/** Asset embeds and the colour and icon of domains and glossary entities. */
export const embedDisplayMutations = { updateEmbed, updateDisplayProperties }
