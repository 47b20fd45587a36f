import type { CatalogContext } from '../../context.js'
import { cipherOf } from '../../mutations/support.js'
import { holds } from '../users-groups.js'

/**
 * `DataHubConnection.details`: type and name; the JSON blob decrypted, for callers who may manage
 * connections only (null for the others), as DataHub's ConnectionMapper.
 */
export async function connectionDetails(source: { urn: string }, _args: unknown, ctx: CatalogContext) {
  const details = (await ctx.graph.object(source.urn)).details as {
    type: string
    name: string | null
    storedBlob: string | null
  } | null
  if (!details) return null
  let json: { blob: string } | null = null
  if (details.storedBlob !== null && (await holds(ctx, ['MANAGE_CONNECTIONS']))) {
    json = { blob: cipherOf(ctx, 'Connections').decrypt(details.storedBlob) }
  }
  return { type: details.type, name: details.name, json }
}
