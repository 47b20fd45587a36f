import type { CatalogContext } from '../../context.js'
import { connectionCipher } from '../../mappers/connection.js'

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
  if (details.storedBlob !== null && (await mayManage(ctx))) {
    json = { blob: connectionCipher(ctx.tokens).decrypt(details.storedBlob) }
  }
  return { type: details.type, name: details.name, json }
}

async function mayManage(ctx: CatalogContext): Promise<boolean> {
  return !ctx.authorizer || ctx.authorizer.authorize(ctx.actor, [{ anyOf: ['MANAGE_CONNECTIONS'] }])
}
