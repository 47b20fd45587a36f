import { DEFAULT_ROLES } from '@catalog/auth'
import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { resolveInput, upsert, write } from '../mutations/support.js'

const ROLE_INFO = 'dataHubRoleInfo'
const DEFAULT_COUNT = 20
const MAX_ACTORS = 1_000

interface ListRolesInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
}

interface BatchAssignRoleInput {
  readonly roleUrn?: string | null
  readonly actors: readonly string[]
}

/**
 * `listRoles`: DataHub's roles (Admin, Editor, Reader: its roles are fixed, created on first
 * start), as stored in their `dataHubRoleInfo`, filtered by `query` (name, case-insensitive)
 * and paged by `start`/`count` (default 20).
 */
async function listRoles(_: unknown, { input }: { input: ListRolesInput }, ctx: CatalogContext) {
  const start = Math.max(0, input.start ?? 0)
  const count = Math.max(0, input.count ?? DEFAULT_COUNT)
  const urns = DEFAULT_ROLES.map((r) => r.urn)
  const stored = await ctx.client.getEntities(urns, [ROLE_INFO])
  const query = (input.query ?? '').trim().toLowerCase()
  const roles = urns.flatMap((urn) => {
    const info = stored.get(urn)?.aspects[ROLE_INFO]
    if (!info) return []
    const name = String(info.name ?? '')
    if (query && query !== '*' && !name.toLowerCase().includes(query)) return []
    return [{ urn, type: 'DATAHUB_ROLE', name, description: String(info.description ?? '') }]
  })
  const page = roles.slice(start, start + count)
  return { start, count: page.length, total: roles.length, roles: page }
}

/**
 * `batchAssignRole`: DataHub's `RoleService.batchAssignRoleToActors`. Each user or group in
 * `actors` gets `roleMembership {roles: [roleUrn]}` (a user or group holds one role); without
 * `roleUrn` their roles are removed. The role must exist. All writes are one batch.
 * Who may call it (MANAGE_POLICIES) is checked before, by `authorizeMutation`.
 */
async function batchAssignRole(
  _: unknown,
  { input }: { input: BatchAssignRoleInput },
  ctx: CatalogContext,
): Promise<boolean> {
  if (input.actors.length > MAX_ACTORS) {
    throw new InvalidInputError(`At most ${MAX_ACTORS} actors can be assigned a role at once`)
  }
  const roleUrn = input.roleUrn ?? undefined
  if (roleUrn !== undefined) {
    const role = resolveInput(ctx, roleUrn)
    if (
      role.entity.name !== 'dataHubRole' ||
      !(await ctx.client.getEntities([role.urn], [ROLE_INFO])).get(role.urn)?.aspects[ROLE_INFO]
    ) {
      throw new InvalidInputError(`Role ${roleUrn} does not exist`)
    }
  }
  const proposals = input.actors.map((actor) => {
    const ref = resolveInput(ctx, actor)
    if (ref.entity.name !== 'corpuser' && ref.entity.name !== 'corpGroup') {
      throw new InvalidInputError(`Actor ${actor} is neither a corpuser nor a corpGroup`)
    }
    return upsert(ref, 'roleMembership', { roles: roleUrn === undefined ? [] : [roleUrn] })
  })
  await write(ctx, proposals)
  return true
}

export const roleQueries = { listRoles }
export const roleMutations = { batchAssignRole }
