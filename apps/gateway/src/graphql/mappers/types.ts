import type { MetadataClient } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import type { Mapped } from './common.js'

/** What a field computed on demand may use. */
export interface FieldContext {
  readonly client: MetadataClient
  /** This request's entities, loaded in batches (ancestor walks read through it). */
  readonly graph: { readonly loader: { load(urn: string): Promise<LoadedEntity> } }
}

/** A field computed on demand from its arguments (`schemaMetadata(version:)`, `exists`). */
export type FieldFn = (args: Record<string, unknown>, ctx: FieldContext) => unknown

/** How one entity type appears in GraphQL: type name, EntityType symbol, aspects read, mapper. */
export interface EntityMapping {
  readonly typeName: string
  readonly entityType: string
  readonly aspects: readonly string[]
  readonly map: (entity: LoadedEntity) => Mapped
}

/** The `exists` field: known from the load, or asked for when selected. */
export function existsField(entity: LoadedEntity): boolean | FieldFn {
  return entity.exists ?? ((_args, ctx) => ctx.client.exists(entity.urn))
}
