import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { resolveInput, upsert, write } from './support.js'

interface BatchUpdateSoftDeletedInput {
  readonly urns: readonly string[]
  readonly deleted: boolean
}

/**
 * DataHub's BatchUpdateSoftDeletedResolver: every entity must exist (soft-deleted ones count),
 * then each gets the `status` aspect `{removed: deleted}`, all in one atomic write.
 */
async function batchUpdateSoftDeleted(
  _: unknown,
  { input }: { input: BatchUpdateSoftDeletedInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const refs: EntityRef[] = []
  for (const urn of input.urns) {
    const ref = resolveInput(ctx, urn)
    if (!(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Failed to soft delete entity with urn ${urn}. Entity does not exist.`)
    }
    if (!refs.some((r) => r.urn === ref.urn)) refs.push(ref)
  }
  await write(
    ctx,
    refs.map((ref) => upsert(ref, 'status', { removed: input.deleted })),
  )
  return true
}

/** `batchUpdateSoftDeleted` (the UI's bulk "mark as deleted"). */
export const softDeleteMutations = { batchUpdateSoftDeleted }
