import { CatalogError } from '@catalog/core'
import type { BootstrapProposal } from '../token-records.js'
import { DEFAULT_POLICIES, DEFAULT_ROLES } from './default-policies.js'

/** The proposals that store DataHub's default policies and roles, each only if absent (`CREATE`). */
export function defaultPolicyProposals(): BootstrapProposal[] {
  const create = (
    entityType: string,
    entityUrn: string,
    aspectName: string,
    value: unknown,
  ): BootstrapProposal => ({
    entityType,
    entityUrn,
    changeType: 'CREATE',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  })
  return [
    ...DEFAULT_POLICIES.map((p) => create('dataHubPolicy', p.urn, 'dataHubPolicyInfo', p.info)),
    ...DEFAULT_ROLES.map((r) => create('dataHubRole', r.urn, 'dataHubRoleInfo', r.info)),
  ]
}

/**
 * Stores the default policies and roles that are not stored yet; one already stored (maybe
 * edited since) is left as it is. Returns how many were created.
 */
export async function ensureDefaultPolicies(
  ingest: (proposals: readonly BootstrapProposal[], actor: string) => Promise<unknown>,
  actor: string,
): Promise<number> {
  let created = 0
  for (const proposal of defaultPolicyProposals()) {
    try {
      await ingest([proposal], actor)
      created++
    } catch (err) {
      // CREATE of an aspect that exists is refused: that default is already there.
      if (!(err instanceof CatalogError) || err.kind === 'unavailable') throw err
    }
  }
  return created
}
