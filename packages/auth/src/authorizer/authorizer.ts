import { ROOT_ACTOR, SYSTEM_ACTOR } from '@catalog/core'
import { policyApplies, policyGrants } from './policy-engine.js'
import type { ActorFacts, PolicyInfo, ResourceFacts } from './policy-types.js'

/** Where the authorizer reads policies, memberships and resource facts from. */
export interface PolicySource {
  /** Every stored policy (`dataHubPolicyInfo`). */
  policies(): Promise<readonly PolicyInfo[]>
  /** The actor's groups and roles (direct and through its groups). */
  actor(urn: string): Promise<ActorFacts>
  /** Owners, domains and tags of the resource. */
  resource(urn: string): Promise<ResourceFacts>
}

/** One requirement: any one of `anyOf` on `resource` (absent: platform-wide). */
export interface Requirement {
  readonly anyOf: readonly string[]
  readonly resource?: string
}

/**
 * Decides requests as DataHub's `DataHubAuthorizer` does: a privilege is granted when any
 * stored policy grants it to the actor on the resource. The system actor is always allowed;
 * so is the root user (`urn:li:corpuser:datahub`), which DataHub's default policies 0 and 1
 * grant everything, so that editing policies can never lock the catalog's owner out.
 */
export class Authorizer {
  constructor(private readonly source: PolicySource) {}

  /**
   * True for the actors every requirement is granted to whatever the policies say (the system
   * actor and the root user): a caller may skip working out what to ask for them.
   */
  grantsEverything(actorUrn: string): boolean {
    return actorUrn === SYSTEM_ACTOR || actorUrn === ROOT_ACTOR
  }

  /** True when every requirement is met. */
  async authorize(actorUrn: string, requirements: readonly Requirement[]): Promise<boolean> {
    if (this.grantsEverything(actorUrn)) return true
    if (requirements.length === 0) return true
    const [policies, actor] = await Promise.all([this.source.policies(), this.source.actor(actorUrn)])
    const resources = new Map<string, Promise<ResourceFacts>>()
    for (const req of requirements) {
      // A policy that grants without looking at the resource grants on every resource: the
      // resource's facts (owners, domains, tags) are read only when no such policy does.
      const anywhere = req.anyOf.some((privilege) =>
        policies.some((policy) => policyGrants(policy, privilege, actor, undefined)),
      )
      if (anywhere) continue
      let resource: ResourceFacts | undefined
      if (req.resource !== undefined) {
        let facts = resources.get(req.resource)
        if (!facts) {
          facts = this.source.resource(req.resource)
          resources.set(req.resource, facts)
        }
        resource = await facts
      }
      const granted = req.anyOf.some((privilege) =>
        policies.some((policy) => policyGrants(policy, privilege, actor, resource)),
      )
      if (!granted) return false
    }
    return true
  }

  /**
   * Every privilege the policies grant the actor on `resource` (or platform-wide), as DataHub's
   * `DataHubAuthorizer.getGrantedPrivileges`: the privileges of each policy that applies.
   */
  async grantedPrivileges(actorUrn: string, resource?: string): Promise<string[]> {
    const [policies, actor, facts] = await Promise.all([
      this.source.policies(),
      this.source.actor(actorUrn),
      resource === undefined ? undefined : this.source.resource(resource),
    ])
    return [...new Set(policies.filter((p) => policyApplies(p, actor, facts)).flatMap((p) => p.privileges))]
  }

  /** Which of `privileges` the actor holds, on `resource` or platform-wide (absent). */
  async granted(actorUrn: string, privileges: readonly string[], resource?: string): Promise<Set<string>> {
    if (this.grantsEverything(actorUrn)) return new Set(privileges)
    const [policies, actor, facts] = await Promise.all([
      this.source.policies(),
      this.source.actor(actorUrn),
      resource === undefined ? undefined : this.source.resource(resource),
    ])
    return new Set(
      privileges.filter((privilege) => policies.some((p) => policyGrants(p, privilege, actor, facts))),
    )
  }
}
