import type {
  ActorFacts,
  PolicyActors,
  PolicyCriterion,
  PolicyInfo,
  PolicyResources,
  ResourceFacts,
} from './policy-types.js'

/**
 * Whether one policy grants `privilege` to `actor` on `resource`, as DataHub's
 * `PolicyEngine.evaluatePolicy` decides: the policy is active, lists the privilege, its
 * resource filter matches (platform policies have none) and its actor filter matches.
 */
export function policyGrants(
  policy: PolicyInfo,
  privilege: string,
  actor: ActorFacts,
  resource: ResourceFacts | undefined,
): boolean {
  return policy.privileges.includes(privilege) && policyApplies(policy, actor, resource)
}

/** Whether `policy` is active and applies to `actor` on `resource` (DataHub's `isPolicyApplicable`). */
export function policyApplies(
  policy: PolicyInfo,
  actor: ActorFacts,
  resource: ResourceFacts | undefined,
): boolean {
  if (policy.state !== 'ACTIVE') return false
  if (policy.type !== 'PLATFORM' && !resourceMatches(policy.resources, resource)) return false
  return actorMatches(policy.actors, actor, resource)
}

function actorMatches(actors: PolicyActors, actor: ActorFacts, resource: ResourceFacts | undefined): boolean {
  if (actors.allUsers) return true
  if (actors.allGroups && actor.groups.length > 0) return true
  if (actors.users?.includes(actor.urn)) return true
  if (actors.groups?.some((g) => actor.groups.includes(g))) return true
  if (actors.roles?.some((r) => actor.roles.includes(r))) return true
  if (actors.resourceOwners && resource) {
    const who = new Set([actor.urn, ...actor.groups])
    const types = actors.resourceOwnersTypes
    return resource.owners.some(
      (o) =>
        who.has(o.owner) &&
        (types === undefined || types.length === 0 || (o.typeUrn !== undefined && types.includes(o.typeUrn))),
    )
  }
  return false
}

function resourceMatches(filter: PolicyResources | undefined, resource: ResourceFacts | undefined): boolean {
  // No filter, or "all resources": the policy applies to every resource and to none.
  if (filter === undefined || filter.allResources) return true
  if (resource === undefined) return false
  const criteria: PolicyCriterion[] = [...(filter.filter?.criteria ?? [])]
  if (filter.type) criteria.push({ field: 'TYPE', values: [filter.type] })
  if (filter.resources && filter.resources.length > 0)
    criteria.push({ field: 'URN', values: filter.resources })
  return criteria.every((c) => criterionMatches(c, resource))
}

function fieldValues(field: string, resource: ResourceFacts): readonly string[] {
  switch (field) {
    case 'TYPE':
    case 'RESOURCE_TYPE':
      return [resource.type]
    case 'URN':
    case 'RESOURCE_URN':
      return [resource.urn]
    case 'DOMAIN':
      return resource.domains
    case 'TAG':
      return resource.tags
    case 'OWNER':
      return resource.owners.map((o) => o.owner)
    default:
      return []
  }
}

function criterionMatches(criterion: PolicyCriterion, resource: ResourceFacts): boolean {
  const actual = fieldValues(criterion.field, resource)
  const condition = criterion.condition ?? 'EQUALS'
  if (condition === 'NOT_EQUALS') return !criterion.values.some((v) => actual.includes(v))
  if (condition === 'STARTS_WITH') return criterion.values.some((v) => actual.some((a) => a.startsWith(v)))
  return criterion.values.some((v) => actual.includes(v))
}
