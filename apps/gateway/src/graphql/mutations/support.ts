import { type EntityRef, InvalidInputError, UnavailableError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { systemOwnershipTypeUrn } from '../mappers/common.js'

export { schemaFieldUrn } from '../mappers/common.js'

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

/**
 * A URN from mutation input naming an entity of `entityType`: a 400 when it is malformed, or
 * names another type (`${urn} is not a <type> urn`, or `message`).
 */
export function typedRef(ctx: CatalogContext, urn: string, entityType: string, message?: string): EntityRef {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== entityType) {
    throw new InvalidInputError(
      message ?? `${urn} is not ${/^[aeiou]/i.test(entityType) ? 'an' : 'a'} ${entityType} urn`,
    )
  }
  return ref
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

/** A DELETE proposal of an entity's key aspect: a hard delete of the whole entity. */
export function deleteEntity(ref: EntityRef): MetadataProposal {
  return {
    entityType: ref.entity.name,
    entityUrn: ref.urn,
    changeType: 'DELETE',
    aspectName: ref.entity.keyAspect,
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

/** DataHub's `addCreatorAsOwner`: the caller as technical owner of what it just created. */
export function creatorOwnership(ctx: CatalogContext): AspectValue {
  return {
    owners: [
      { owner: ctx.actor, type: 'TECHNICAL_OWNER', typeUrn: systemOwnershipTypeUrn('TECHNICAL_OWNER') },
    ],
    lastModified: stampOf(ctx),
  }
}

/**
 * What encrypts secrets and connection blobs (DataHub's SecretService); `what` is not available
 * (a 503) on a server without an encryption key.
 */
export function cipherOf(ctx: CatalogContext, what: string) {
  const cipher = ctx.tokens?.cipher
  if (!cipher) throw new UnavailableError(`${what} are not available: this server has no encryption key`)
  return cipher
}

/** A name from mutation input: `what` with a blank name is refused (a 400). */
export function nameOf(name: string, what: string): string {
  if (name.trim() === '') throw new InvalidInputError(`${what} needs a name that is not blank`)
  return name
}
