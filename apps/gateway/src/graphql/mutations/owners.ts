import { InvalidInputError } from '@catalog/core'
import type { MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { systemOwnershipTypeUrn } from '../mappers/common.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { resolveInput, stampOf, write } from './support.js'
import { type ResourceRef, validateResource } from './validate.js'

/** The symbols of DataHub's `com.linkedin.common.OwnershipType` (the deprecated `type` of an owner). */
const OWNERSHIP_TYPES = [
  'CUSTOM',
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'DEVELOPER',
  'DATAOWNER',
  'DELEGATE',
  'PRODUCER',
  'CONSUMER',
  'STAKEHOLDER',
] as const

const SYSTEM_PREFIX = systemOwnershipTypeUrn('')

/**
 * Owners are addressed as `/owners/<owner>/<type>/<typeUrn>` (DataHub's newest OwnershipTemplate
 * keys), given explicitly so the paths do not depend on the template; an owner written before
 * ownership type entities has no `typeUrn` and sits under the empty key.
 */
const OWNER_KEYS = { owners: ['owner', 'type', 'typeUrn'] }

export interface OwnerInput {
  readonly ownerUrn: string
  readonly ownerEntityType: 'CORP_USER' | 'CORP_GROUP'
  readonly type?: string | null
  readonly ownershipTypeUrn?: string | null
}

interface AddOwnerInput extends OwnerInput {
  readonly resourceUrn: string
}

interface AddOwnersInput {
  readonly owners: readonly OwnerInput[]
  readonly resourceUrn: string
}

interface RemoveOwnerInput {
  readonly ownerUrn: string
  readonly ownershipTypeUrn?: string | null
  readonly resourceUrn: string
}

interface BatchAddOwnersInput {
  readonly owners: readonly OwnerInput[]
  readonly resources: ReadonlyArray<ResourceRef | null>
}

interface BatchRemoveOwnersInput {
  readonly ownerUrns: readonly string[]
  readonly ownershipTypeUrn?: string | null
  readonly resources: ReadonlyArray<ResourceRef | null>
}

/** True for DataHub's bootstrapped `urn:li:ownershipType:__system__<type>` entities. */
function isSystemType(urn: string): boolean {
  const suffix = urn.startsWith(SYSTEM_PREFIX) ? urn.slice(SYSTEM_PREFIX.length).toUpperCase() : ''
  return (OWNERSHIP_TYPES as readonly string[]).includes(suffix)
}

/** DataHub's `OwnerUtils.validateOwner`, messages word for word. */
export async function validateOwner(ctx: CatalogContext, owner: OwnerInput): Promise<void> {
  const ref = resolveInput(ctx, owner.ownerUrn)
  const fail = (why: string) => new InvalidInputError(`Failed to change ownership for resource(s). ${why}`)
  if (owner.ownerEntityType === 'CORP_GROUP' && ref.entity.name !== 'corpGroup') {
    throw fail(`Expected a corp group urn, found ${ref.urn}`)
  }
  if (owner.ownerEntityType === 'CORP_USER' && ref.entity.name !== 'corpuser') {
    throw fail(`Expected a corp user urn, found ${ref.urn}.`)
  }
  if (!(await ctx.client.exists(ref.urn))) throw fail(`Owner with urn ${ref.urn} does not exist.`)
  const typeUrn = owner.ownershipTypeUrn
  if (typeUrn != null) {
    const typeRef = resolveInput(ctx, typeUrn)
    if (!isSystemType(typeRef.urn) && !(await ctx.client.exists(typeRef.urn))) {
      throw fail(`Custom Ownership type with urn ${typeUrn} does not exist.`)
    }
  }
  if (owner.type == null && typeUrn == null) {
    throw fail('Expected either type or ownershipTypeUrn to be specified.')
  }
}

/**
 * Operations removing `owner` with ownership type `typeUrn` whatever its deprecated `type`, and an
 * older entry without `typeUrn` whose `type` maps to it (DataHub's `isOwnerEqual`); without
 * `typeUrn`, every entry of the owner.
 */
function removeOps(owner: string, typeUrn: string | null | undefined): PatchOp[] {
  if (typeUrn == null) return [{ op: 'remove', path: pointer('owners', owner) }]
  const ops: PatchOp[] = OWNERSHIP_TYPES.map((type) => ({
    op: 'remove',
    path: pointer('owners', owner, type, typeUrn),
  }))
  for (const type of OWNERSHIP_TYPES) {
    if (systemOwnershipTypeUrn(type) === typeUrn)
      ops.push({ op: 'remove', path: pointer('owners', owner, type, '') })
  }
  return ops
}

/** DataHub's `OwnerServiceUtils.addOwnerToAspect`: replaces the owner's entry of that type, source MANUAL. */
function addOps(owner: OwnerInput): PatchOp[] {
  const type = owner.type ?? 'NONE'
  const typeUrn = owner.ownershipTypeUrn ?? systemOwnershipTypeUrn(type)
  const value = { owner: owner.ownerUrn, type, typeUrn, source: { type: 'MANUAL' } }
  return [
    ...removeOps(owner.ownerUrn, typeUrn),
    { op: 'add', path: pointer('owners', owner.ownerUrn, type, typeUrn), value },
  ]
}

function ownershipPatch(ctx: CatalogContext, resourceUrn: string, ops: readonly PatchOp[]): MetadataProposal {
  const stamped = [...ops, { op: 'add' as const, path: pointer('lastModified'), value: stampOf(ctx) }]
  return patch(resolveInput(ctx, resourceUrn), 'ownership', stamped, OWNER_KEYS)
}

/** `Failed to change ownership for resource <urn>. Resource does not exist.` (single-resource resolvers). */
async function validateOwned(ctx: CatalogContext, resourceUrn: string): Promise<string> {
  const ref = resolveInput(ctx, resourceUrn)
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(
      `Failed to change ownership for resource ${ref.urn}. Resource does not exist.`,
    )
  }
  return ref.urn
}

/** The batch resolvers' `validateInputResource`: no sub-resources, and the resource must exist. */
async function validateBatch(
  ctx: CatalogContext,
  resources: ReadonlyArray<ResourceRef | null>,
): Promise<string[]> {
  const urns: string[] = []
  for (const [i, resource] of resources.entries()) {
    if (!resource) throw new InvalidInputError(`Failed to update resources: resources[${i}] is null`)
    if (resource.subResource != null) {
      throw new InvalidInputError('Malformed input provided: owners cannot be applied to subresources.')
    }
    urns.push((await validateResource(ctx, resource)).urn)
  }
  return urns
}

async function addOwners(ctx: CatalogContext, owners: readonly OwnerInput[], resources: readonly string[]) {
  const ops = owners.flatMap(addOps)
  await write(
    ctx,
    resources.map((urn) => ownershipPatch(ctx, urn, ops)),
  )
  return true
}

async function removeOwners(
  ctx: CatalogContext,
  owners: readonly string[],
  typeUrn: string | null | undefined,
  resources: readonly string[],
) {
  const ops = owners.flatMap((o) => removeOps(resolveInput(ctx, o).urn, typeUrn))
  await write(
    ctx,
    resources.map((urn) => ownershipPatch(ctx, urn, ops)),
  )
  return true
}

/** DataHub's AddOwner(s)/RemoveOwner/BatchAddOwners/BatchRemoveOwners resolvers, as atomic PATCHes of `ownership`. */
export const ownerMutations = {
  async addOwner(_: unknown, { input }: { input: AddOwnerInput }, ctx: CatalogContext) {
    const resource = await validateOwned(ctx, input.resourceUrn)
    await validateOwner(ctx, input)
    return addOwners(ctx, [input], [resource])
  },

  async addOwners(_: unknown, { input }: { input: AddOwnersInput }, ctx: CatalogContext) {
    const resource = await validateOwned(ctx, input.resourceUrn)
    for (const owner of input.owners) await validateOwner(ctx, owner)
    return addOwners(ctx, input.owners, [resource])
  },

  async removeOwner(_: unknown, { input }: { input: RemoveOwnerInput }, ctx: CatalogContext) {
    const resource = await validateOwned(ctx, input.resourceUrn)
    return removeOwners(ctx, [input.ownerUrn], input.ownershipTypeUrn, [resource])
  },

  async batchAddOwners(_: unknown, { input }: { input: BatchAddOwnersInput }, ctx: CatalogContext) {
    for (const owner of input.owners) await validateOwner(ctx, owner)
    return addOwners(ctx, input.owners, await validateBatch(ctx, input.resources))
  },

  async batchRemoveOwners(_: unknown, { input }: { input: BatchRemoveOwnersInput }, ctx: CatalogContext) {
    const resources = await validateBatch(ctx, input.resources)
    return removeOwners(ctx, input.ownerUrns, input.ownershipTypeUrn, resources)
  },
}
