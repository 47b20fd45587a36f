import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'

/** `AuditStamp` of a write by the caller, now. */
export function stampOf(ctx: CatalogContext): { time: number; actor: string } {
  return { time: Date.now(), actor: ctx.actor }
}

/** Resolves a URN from mutation input: a 400 for a malformed URN or an unknown entity type. */
export function resolveInput(ctx: CatalogContext, urn: string): EntityRef {
  try {
    return ctx.registry.resolveUrn(urn)
  } catch (err) {
    throw new InvalidInputError((err as Error).message, { cause: err })
  }
}

/** An UPSERT proposal of one whole aspect. */
export function upsert(ref: EntityRef, aspectName: string, value: AspectValue): MetadataProposal {
  return {
    entityType: ref.entity.name,
    entityUrn: ref.urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  }
}

/** The current value of one aspect, read fresh (not from the request's cache). */
export async function currentAspect(
  ctx: CatalogContext,
  urn: string,
  aspect: string,
): Promise<AspectValue | undefined> {
  return (await ctx.client.getEntities([urn], [aspect])).get(urn)?.aspects[aspect]
}

/**
 * Writes through the same ingest path as REST (versions, edges, change log and search
 * follow), stamped with the caller, then forgets the request's reads so later fields see it.
 */
export async function write(ctx: CatalogContext, proposals: readonly MetadataProposal[]): Promise<void> {
  if (proposals.length === 0) return
  await ctx.client.ingestProposals(proposals, ctx.actor)
  ctx.graph.clear()
}

/** DataHub's schema field URN: `urn:li:schemaField:(<dataset urn>,<field path>)`. */
export function schemaFieldUrn(datasetUrn: string, fieldPath: string): string {
  return `urn:li:schemaField:(${datasetUrn},${fieldPath})`
}

/** Reads (or starts) `editableSchemaMetadata`, edits the info of one field, returns the aspect to write. */
export async function editFieldInfo(
  ctx: CatalogContext,
  datasetUrn: string,
  fieldPath: string,
  edit: (info: AspectValue) => AspectValue,
): Promise<AspectValue> {
  const current = await currentAspect(ctx, datasetUrn, 'editableSchemaMetadata')
  const infos = Array.isArray(current?.editableSchemaFieldInfo)
    ? [...(current.editableSchemaFieldInfo as AspectValue[])]
    : []
  const at = infos.findIndex((i) => i.fieldPath === fieldPath)
  const edited = edit(at >= 0 ? { ...(infos[at] as AspectValue) } : { fieldPath })
  if (at >= 0) infos[at] = edited
  else infos.push(edited)
  const stamp = stampOf(ctx)
  return {
    ...current,
    created: current?.created ?? stamp,
    lastModified: stamp,
    editableSchemaFieldInfo: infos,
  }
}
