/** DataHub's `DataHubActorFilter`. */
export interface PolicyActors {
  readonly users?: readonly string[]
  readonly groups?: readonly string[]
  readonly roles?: readonly string[]
  readonly resourceOwners?: boolean
  /** Ownership type URNs; when set, only owners of these types match. */
  readonly resourceOwnersTypes?: readonly string[]
  readonly allUsers?: boolean
  readonly allGroups?: boolean
}

/** DataHub's `PolicyMatchCriterion`. */
export interface PolicyCriterion {
  readonly field: string
  readonly values: readonly string[]
  readonly condition?: 'EQUALS' | 'STARTS_WITH' | 'NOT_EQUALS' | string
}

/** DataHub's `DataHubResourceFilter` (the legacy `type`/`resources` pair and the `filter`). */
export interface PolicyResources {
  readonly type?: string
  readonly resources?: readonly string[]
  readonly allResources?: boolean
  readonly filter?: { readonly criteria: readonly PolicyCriterion[] }
}

/** DataHub's `dataHubPolicyInfo` aspect. */
export interface PolicyInfo {
  readonly displayName?: string
  readonly description?: string
  readonly type: 'PLATFORM' | 'METADATA' | string
  readonly state: 'ACTIVE' | 'INACTIVE' | string
  readonly privileges: readonly string[]
  readonly actors: PolicyActors
  readonly resources?: PolicyResources
  readonly editable?: boolean
}

/** What is known of the caller: its URN, its groups and its roles. */
export interface ActorFacts {
  readonly urn: string
  readonly groups: readonly string[]
  readonly roles: readonly string[]
}

/** What is known of the resource acted on (absent for platform-wide requests). */
export interface ResourceFacts {
  readonly type: string
  readonly urn: string
  readonly owners: readonly { readonly owner: string; readonly typeUrn?: string }[]
  readonly domains: readonly string[]
  readonly tags: readonly string[]
}
