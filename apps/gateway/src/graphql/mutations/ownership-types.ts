import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { writeWithReferences } from './entity-references.js'
import { type PatchOp, patch } from './patch.js'
import { currentAspect, deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

const INFO = 'ownershipTypeInfo'
/** DataHub's `OwnershipTypeService.SYSTEM_ID`: the id prefix of the bootstrapped ownership types. */
const SYSTEM_ID = '__system__'

interface CreateOwnershipTypeInput {
  readonly name: string
  readonly description: string
}
interface UpdateOwnershipTypeInput {
  readonly name?: string | null
  readonly description?: string | null
}

/** `urn` as an ownership type URN; a 400 for a malformed URN or another entity type. */
function ownershipTypeRef(ctx: CatalogContext, urn: string): EntityRef {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'ownershipType') throw new InvalidInputError(`${urn} is not an ownershipType urn`)
  return ref
}

/**
 * DataHub's `CreateOwnershipTypeResolver` (`OwnershipTypeService.createOwnershipType`): a new
 * `urn:li:ownershipType:<uuid>` with `ownershipTypeInfo` stamped created and last modified by the
 * caller. Answers the new ownership type.
 */
async function createOwnershipType(
  _: unknown,
  { input }: { input: CreateOwnershipTypeInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const ref = resolveInput(ctx, `urn:li:ownershipType:${randomUUID()}`)
  const stamp = stampOf(ctx)
  const info = { name: input.name, description: input.description, created: stamp, lastModified: stamp }
  await write(ctx, [upsert(ref, INFO, info)])
  return { urn: ref.urn }
}

/**
 * DataHub's `UpdateOwnershipTypeResolver`: a given name or description replaces the stored one,
 * `lastModified` is the caller now; one PATCH of the latest value. Answers the ownership type.
 */
async function updateOwnershipType(
  _: unknown,
  { urn, input }: { urn: string; input: UpdateOwnershipTypeInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'ownershipType' || !(await currentAspect(ctx, ref.urn, INFO))) {
    throw new InvalidInputError(
      `Failed to update Ownership Type. Ownership Type with urn ${urn} does not exist.`,
    )
  }
  const ops: PatchOp[] = []
  if (input.name != null) ops.push({ op: 'add', path: '/name', value: input.name })
  if (input.description != null) ops.push({ op: 'add', path: '/description', value: input.description })
  ops.push({ op: 'add', path: '/lastModified', value: stampOf(ctx) })
  await write(ctx, [patch(ref, INFO, ops)])
  return { urn: ref.urn }
}

/**
 * DataHub's `DeleteOwnershipTypeResolver`: a system ownership type (`__system__` id) is only
 * soft-deleted (`status.removed`); any other is hard-deleted, and with `deleteReferences` (the
 * default) the owners naming it go in the same write. An absent one answers true, writing nothing.
 */
async function deleteOwnershipType(
  _: unknown,
  { urn, deleteReferences }: { urn: string; deleteReferences?: boolean | null },
  ctx: CatalogContext,
): Promise<boolean> {
  const ref = ownershipTypeRef(ctx, urn)
  const id = ref.urn.slice('urn:li:ownershipType:'.length)
  if (id.startsWith(SYSTEM_ID)) {
    await write(ctx, [upsert(ref, 'status', { removed: true })])
    return true
  }
  if (!(await ctx.client.exists(ref.urn))) return true
  if (deleteReferences === false) await write(ctx, [deleteEntity(ref)])
  else await writeWithReferences(ctx, ref, [deleteEntity(ref)])
  return true
}

/** Ownership type administration (MANAGE_GLOBAL_OWNERSHIP_TYPES, checked by `authorizeMutation`). */
export const ownershipTypeMutations = { createOwnershipType, updateOwnershipType, deleteOwnershipType }
