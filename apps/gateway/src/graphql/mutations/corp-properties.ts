import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { resolveInput, write } from './support.js'

interface CorpUserUpdateInput {
  readonly displayName?: string | null
  readonly title?: string | null
  readonly aboutMe?: string | null
  readonly teams?: readonly string[] | null
  readonly skills?: readonly string[] | null
  readonly pictureLink?: string | null
  readonly slack?: string | null
  readonly phone?: string | null
  readonly email?: string | null
  readonly platformUrns?: readonly string[] | null
  readonly personaUrn?: string | null
}

interface CorpGroupUpdateInput {
  readonly description?: string | null
  readonly slack?: string | null
  readonly email?: string | null
  readonly pictureLink?: string | null
}

/** `urn` resolved: a 400 unless it is an existing entity of `entityType`. */
async function existing(
  ctx: CatalogContext,
  urn: string,
  entityType: 'corpuser' | 'corpGroup',
): Promise<EntityRef> {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== entityType) throw new InvalidInputError(`${urn} is not a ${entityType} urn`)
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`Failed to update ${ref.urn}. ${ref.urn} does not exist.`)
  }
  return ref
}

/** One `add` per given field: the rest of the stored aspect stays as it is. */
function fieldOps(fields: Readonly<Record<string, unknown>>): PatchOp[] {
  return Object.entries(fields)
    .filter(([, value]) => value != null)
    .map(([field, value]) => ({ op: 'add', path: pointer(field), value }))
}

/**
 * DataHub's `CorpUserType.update`: the given fields of `corpUserEditableInfo` replace the stored
 * ones (lists whole), the rest is kept; one PATCH, applied to the latest value inside the write.
 * Answers the user.
 */
async function updateCorpUserProperties(
  _: unknown,
  { urn, input }: { urn: string; input: CorpUserUpdateInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const user = await existing(ctx, urn, 'corpuser')
  const platforms = input.platformUrns?.map((p) => resolveInput(ctx, p).urn)
  const persona = input.personaUrn != null ? resolveInput(ctx, input.personaUrn).urn : undefined
  const ops = fieldOps({
    displayName: input.displayName,
    title: input.title,
    aboutMe: input.aboutMe,
    teams: input.teams,
    skills: input.skills,
    pictureLink: input.pictureLink,
    slack: input.slack,
    phone: input.phone,
    email: input.email,
    platforms,
    persona,
  })
  if (ops.length > 0) await write(ctx, [patch(user, 'corpUserEditableInfo', ops)])
  return { urn: user.urn }
}

/** DataHub's `CorpGroupType.update`: the given fields of `corpGroupEditableInfo`, as one PATCH. Answers the group. */
async function updateCorpGroupProperties(
  _: unknown,
  { urn, input }: { urn: string; input: CorpGroupUpdateInput },
  ctx: CatalogContext,
): Promise<EntitySource> {
  const group = await existing(ctx, urn, 'corpGroup')
  const ops = fieldOps({
    description: input.description,
    slack: input.slack,
    email: input.email,
    pictureLink: input.pictureLink,
  })
  if (ops.length > 0) await write(ctx, [patch(group, 'corpGroupEditableInfo', ops)])
  return { urn: group.urn }
}

/** Profile edits of users and groups (who may: `updateCorpUserProperties` / `updateCorpGroupProperties` rules). */
export const corpPropertyMutations = { updateCorpUserProperties, updateCorpGroupProperties }
