import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError, NotFoundError } from '@catalog/core'
import type { MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { patch, pointer } from './patch.js'
import { currentAspect, resolveInput, stampOf, upsert, write } from './support.js'

/** Users listed in one call at most. */
const MAX_USERS = 1_000
const NATIVE = 'nativeGroupMembership'
const LEGACY = 'groupMembership'
/** Both membership lists hold plain URNs: each is its own key. */
const NATIVE_KEYS = { nativeGroups: [] }
const LEGACY_KEYS = { groups: [] }

interface CreateGroupInput {
  readonly id?: string | null
  readonly name: string
  readonly description?: string | null
}
interface GroupMembersInput {
  readonly groupUrn: string
  readonly userUrns: readonly string[]
}

/**
 * DataHub's `CreateGroupResolver` (`GroupService.createNativeGroup`): `corpGroupInfo` with empty
 * member lists and a creation stamp, and `origin` NATIVE, in one write; the id is random unless
 * given. Returns the group's URN.
 */
async function createGroup(_: unknown, { input }: { input: CreateGroupInput }, ctx: CatalogContext) {
  const id = input.id ?? randomUUID()
  if (id.trim() === '') throw new InvalidInputError('Group id must not be empty')
  const ref = resolveInput(ctx, `urn:li:corpGroup:${id}`)
  if (await ctx.client.exists(ref.urn)) throw new InvalidInputError('This Group already exists!')
  await write(ctx, [
    upsert(ref, 'corpGroupInfo', {
      displayName: input.name,
      ...(input.description != null ? { description: input.description } : {}),
      groups: [],
      members: [],
      admins: [],
      created: stampOf(ctx),
    }),
    upsert(ref, 'origin', { type: 'NATIVE' }),
  ])
  return ref.urn
}

/** The group of `input`: it must exist, and not come from an external identity provider. */
async function editableGroup(ctx: CatalogContext, input: GroupMembersInput, verb: 'add' | 'remove') {
  if (input.userUrns.length > MAX_USERS) {
    throw new InvalidInputError(
      `At most ${MAX_USERS} users can be ${verb === 'add' ? 'added' : 'removed'} at once`,
    )
  }
  const group = resolveInput(ctx, input.groupUrn)
  if (group.entity.name !== 'corpGroup' || !(await ctx.client.exists(group.urn))) {
    throw new NotFoundError(
      verb === 'add'
        ? `Failed to add members to group ${input.groupUrn}. Group does not exist.`
        : `Failed to add remove members from group ${input.groupUrn}. Group does not exist.`,
    )
  }
  const origin = await currentAspect(ctx, group.urn, 'origin')
  if (origin?.type === 'EXTERNAL') {
    throw new InvalidInputError(
      `Group ${input.groupUrn} was ingested from an external provider and cannot have members manually ${verb === 'add' ? 'added to' : 'removed from'} it`,
    )
  }
  return group
}

/** The distinct users of `urns`, each a corpuser URN. */
function usersOf(ctx: CatalogContext, urns: readonly string[]): EntityRef[] {
  const refs = new Map<string, EntityRef>()
  for (const urn of urns) {
    const ref = resolveInput(ctx, urn)
    if (ref.entity.name !== 'corpuser') throw new InvalidInputError(`${urn} is not a corpuser urn`)
    refs.set(ref.urn, ref)
  }
  return [...refs.values()]
}

/**
 * DataHub's `AddGroupMembersResolver`: each user (which must exist) gets the group in its
 * `nativeGroupMembership`, as a PATCH (applied to the latest value inside the write, so
 * concurrent edits keep each other). Every user is checked before anything is written.
 */
async function addGroupMembers(_: unknown, { input }: { input: GroupMembersInput }, ctx: CatalogContext) {
  const group = await editableGroup(ctx, input, 'add')
  const users = usersOf(ctx, input.userUrns)
  for (const user of users) {
    if (!(await ctx.client.exists(user.urn))) {
      throw new NotFoundError('Failed to add member to group. User does not exist.')
    }
  }
  const path = pointer('nativeGroups', group.urn)
  await write(
    ctx,
    users.map((user) => patch(user, NATIVE, [{ op: 'add', path, value: group.urn }], NATIVE_KEYS)),
  )
  return true
}

/**
 * DataHub's `RemoveGroupMembersResolver`: the group leaves each user's `nativeGroupMembership`,
 * and its `groupMembership` too (where DataHub would first migrate a group without an origin
 * to native membership). Users not in the group are left as they are.
 */
async function removeGroupMembers(_: unknown, { input }: { input: GroupMembersInput }, ctx: CatalogContext) {
  const group = await editableGroup(ctx, input, 'remove')
  const proposals: MetadataProposal[] = []
  for (const user of usersOf(ctx, input.userUrns)) {
    const stored = (await ctx.client.getEntities([user.urn], [NATIVE, LEGACY])).get(user.urn)?.aspects
    const native = stored?.[NATIVE]?.nativeGroups
    const legacy = stored?.[LEGACY]?.groups
    if (Array.isArray(native) && native.includes(group.urn)) {
      proposals.push(
        patch(user, NATIVE, [{ op: 'remove', path: pointer('nativeGroups', group.urn) }], NATIVE_KEYS),
      )
    }
    if (Array.isArray(legacy) && legacy.includes(group.urn)) {
      proposals.push(patch(user, LEGACY, [{ op: 'remove', path: pointer('groups', group.urn) }], LEGACY_KEYS))
    }
  }
  await write(ctx, proposals)
  return true
}

/** Group mutations (MANAGE_USERS_AND_GROUPS or EDIT_GROUP_MEMBERS, checked by `authorizeMutation`). */
export const groupMutations = { createGroup, addGroupMembers, removeGroupMembers }
