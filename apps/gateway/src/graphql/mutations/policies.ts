import { randomUUID } from 'node:crypto'
import { InvalidInputError, NotFoundError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { POLICY_ASPECT, type StoredMatchFilter, type StoredPolicy } from '../resolvers/policies.js'
import { currentAspect, resolveInput, upsert, write } from './support.js'

interface MatchFilterInput {
  readonly criteria?: ReadonlyArray<{ field: string; values: readonly string[]; condition: string }> | null
}

/** DataHub's `PolicyUpdateInput`. */
interface PolicyUpdateInput {
  readonly type: string
  readonly name: string
  readonly state: string
  readonly description?: string | null
  readonly privileges: readonly string[]
  readonly actors: {
    readonly users?: readonly string[] | null
    readonly groups?: readonly string[] | null
    readonly resourceOwners: boolean
    readonly resourceOwnersTypes?: readonly string[] | null
    readonly allUsers: boolean
    readonly allGroups: boolean
  }
  readonly resources?: {
    readonly type?: string | null
    readonly resources?: readonly string[] | null
    readonly allResources?: boolean | null
    readonly filter?: MatchFilterInput | null
    readonly privilegeConstraints?: MatchFilterInput | null
  } | null
}

/** URNs of `entityType`, each parsed (DataHub's `createUrn` message for one that is not a URN). */
function urnsOf(ctx: CatalogContext, urns: readonly string[], entityType: string): string[] {
  return urns.map((urn) => {
    let type: string
    try {
      type = ctx.registry.resolveUrn(urn).entity.name
    } catch (err) {
      throw new InvalidInputError(`Failed to convert urnStr ${urn} into an URN object`, { cause: err })
    }
    if (type !== entityType) throw new InvalidInputError(`${urn} is not a ${entityType} urn`)
    return urn
  })
}

function matchFilter(filter: MatchFilterInput): StoredMatchFilter {
  return {
    criteria: (filter.criteria ?? []).map((c) => ({
      field: c.field,
      values: [...c.values],
      condition: c.condition,
    })),
  }
}

/** DataHub's `PolicyUpdateInputInfoMapper`: absent optional parts left out. */
function policyInfo(ctx: CatalogContext, input: PolicyUpdateInput): StoredPolicy {
  const a = input.actors
  const r = input.resources
  return {
    displayName: input.name,
    ...(input.description != null ? { description: input.description } : {}),
    type: input.type,
    state: input.state,
    privileges: [...input.privileges],
    actors: {
      resourceOwners: a.resourceOwners,
      allUsers: a.allUsers,
      allGroups: a.allGroups,
      ...(a.users ? { users: urnsOf(ctx, a.users, 'corpuser') } : {}),
      ...(a.groups ? { groups: urnsOf(ctx, a.groups, 'corpGroup') } : {}),
      ...(a.resourceOwnersTypes
        ? { resourceOwnersTypes: urnsOf(ctx, a.resourceOwnersTypes, 'ownershipType') }
        : {}),
    },
    ...(r
      ? {
          resources: {
            ...(r.allResources != null ? { allResources: r.allResources } : {}),
            ...(r.type != null ? { type: r.type } : {}),
            ...(r.resources ? { resources: [...r.resources] } : {}),
            ...(r.filter ? { filter: matchFilter(r.filter) } : {}),
            ...(r.privilegeConstraints ? { privilegeConstraints: matchFilter(r.privilegeConstraints) } : {}),
          },
        }
      : {}),
    lastUpdatedTimestamp: Date.now(),
  }
}

/** The stored policy `urn` (a 400 for another entity type, DataHub's 404 when there is none). */
async function existingPolicy(ctx: CatalogContext, urn: string) {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'dataHubPolicy') throw new InvalidInputError(`${urn} is not a dataHubPolicy urn`)
  const info = await currentAspect(ctx, ref.urn, POLICY_ASPECT)
  if (!info) throw new NotFoundError(`Policy ${urn} does not exist`)
  return { ref, info: info as unknown as StoredPolicy }
}

/**
 * DataHub's `UpsertPolicyResolver` creating: a new `dataHubPolicy` with a random id; returns its
 * URN. The authorizer sees it from the next check on (it re-reads policies on their writes).
 */
async function createPolicy(_: unknown, { input }: { input: PolicyUpdateInput }, ctx: CatalogContext) {
  const info = policyInfo(ctx, input)
  const ref = resolveInput(ctx, `urn:li:dataHubPolicy:${randomUUID()}`)
  await write(ctx, [upsert(ref, POLICY_ASPECT, info as unknown as AspectValue)])
  return ref.urn
}

/** DataHub's `UpsertPolicyResolver` updating: the policy's info replaced by `input`; returns its URN. */
async function updatePolicy(
  _: unknown,
  { urn, input }: { urn: string; input: PolicyUpdateInput },
  ctx: CatalogContext,
) {
  const { ref, info: current } = await existingPolicy(ctx, urn)
  const info = {
    ...policyInfo(ctx, input),
    ...(current.editable !== undefined ? { editable: current.editable } : {}),
  }
  await write(ctx, [upsert(ref, POLICY_ASPECT, info as unknown as AspectValue)])
  return ref.urn
}

/** DataHub's `DeletePolicyResolver`: a hard delete of the policy; returns its URN. */
async function deletePolicy(_: unknown, { urn }: { urn: string }, ctx: CatalogContext) {
  const { ref } = await existingPolicy(ctx, urn)
  await write(ctx, [
    {
      entityType: ref.entity.name,
      entityUrn: ref.urn,
      changeType: 'DELETE',
      aspectName: ref.entity.keyAspect,
    },
  ])
  return ref.urn
}

/** Policy mutations (MANAGE_POLICIES, checked before by `authorizeMutation`). */
export const policyMutations = { createPolicy, updatePolicy, deletePolicy }
