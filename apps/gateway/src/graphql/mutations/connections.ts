import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { CONNECTION_DETAILS } from '../mappers/connection.js'
import { urnOf } from '../resolvers/ingestion.js'
import { cipherOf, resolveInput, upsert, write } from './support.js'

interface ConnectionInput {
  readonly id?: string | null
  readonly type: string
  readonly platformUrn: string
  readonly json?: { readonly blob: string } | null
  readonly name?: string | null
}

/**
 * DataHub's UpsertConnectionResolver (MANAGE_CONNECTIONS, checked by `authorizeMutation`):
 * `urn:li:dataHubConnection:<id>` (a new UUID without one), its details (the JSON blob encrypted
 * as secrets are; the name, else the id, as its name) and its platform, written whole. A JSON
 * connection needs its `json`. The connection as read back.
 */
async function upsertConnection(_: unknown, args: { input: ConnectionInput }, ctx: CatalogContext) {
  const { input } = args
  const id = input.id ?? randomUUID()
  const connection = resolveInput(ctx, urnOf(ctx, `urn:li:dataHubConnection:${id}`, 'dataHubConnection'))
  const platform = urnOf(ctx, input.platformUrn, 'dataPlatform')
  if (input.type === 'JSON' && !input.json) {
    throw new InvalidInputError("Connections with type JSON must provide the field 'json'.")
  }
  const details: AspectValue = { type: input.type }
  const name = input.name ?? input.id
  if (name != null) details.name = name
  if (input.json) details.json = { encryptedBlob: cipherOf(ctx, 'Connections').encrypt(input.json.blob) }
  await write(ctx, [
    upsert(connection, CONNECTION_DETAILS, details),
    upsert(connection, 'dataPlatformInstance', { platform }),
  ])
  return { urn: connection.urn }
}

/** `connection(urn)`, as DataHub's connection type loads it: null unless its details and platform exist. */
async function connection(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  const urn = urnOf(ctx, args.urn, 'dataHubConnection')
  const mapped = await ctx.graph.object(urn)
  return mapped.stored === true ? { urn } : null
}

export const connectionMutations = { upsertConnection }
export const connectionQueries = { connection }
