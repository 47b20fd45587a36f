import type { EntityRef } from '@catalog/core'
import type { MetadataProposal } from '../clients/metadata-client.js'

/** One JSON Patch operation of a PATCH proposal. */
export interface PatchOp {
  readonly op: 'add' | 'remove' | 'test'
  readonly path: string
  readonly value?: unknown
}

/** An RFC 6901 pointer from raw tokens (`~` and `/` escaped; URNs and URLs carry `/`). */
export function pointer(...tokens: readonly string[]): string {
  return tokens.map((t) => `/${t.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}

/**
 * A PATCH proposal: the metadata service applies `ops` to the latest value of the aspect inside
 * its write transaction, so concurrent edits of one list never lose each other. With
 * `arrayPrimaryKeys` the listed top-level arrays are addressed by those key fields (DataHub's
 * generic patch), independent of the aspect's own template; without it the template's keys apply.
 */
export function patch(
  ref: EntityRef,
  aspectName: string,
  ops: readonly PatchOp[],
  arrayPrimaryKeys?: Readonly<Record<string, readonly string[]>>,
): MetadataProposal {
  const body = arrayPrimaryKeys ? { patch: ops, arrayPrimaryKeys } : ops
  return {
    entityType: ref.entity.name,
    entityUrn: ref.urn,
    changeType: 'PATCH',
    aspectName,
    aspect: { value: JSON.stringify(body), contentType: 'application/json-patch+json' },
  }
}
