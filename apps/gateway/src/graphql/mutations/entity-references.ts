import type { EntityRef } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { guardedSet, retryingRaces } from './compare-and-set.js'
import { deleteEntity, write } from './support.js'

/** Referring entities looked at, at most (DataHub caps its graph query the same way). */
const MAX_REFERRERS = 10_000
const PAGE = 1_000

/**
 * DataHub's `deleteEntityReferences` for a hard-deleted entity, as proposals to write with
 * its delete: every aspect of another entity with an edge to `target` is rewritten without
 * the reference (list members equal to it or records naming it dropped, fields holding it
 * removed); an aspect no longer valid without it is deleted. Found from the incoming edges of
 * every relationship that may point at the target's entity type. Each rewrite is guarded on the
 * value read: an edit made meanwhile fails the write as a lost race (see {@link writeWithReferences}),
 * never lost under the rewrite.
 */
export async function referenceRemovals(ctx: CatalogContext, target: EntityRef): Promise<MetadataProposal[]> {
  const types = [
    ...new Set(
      ctx.registry
        .allRelationships()
        .filter((r) => r.entityTypes.length === 0 || r.entityTypes.includes(target.entity.name))
        .map((r) => r.name),
    ),
  ].sort()
  if (types.length === 0) return []
  const referrers = new Set<string>()
  for (let start = 0; start < MAX_REFERRERS; start += PAGE) {
    const page = await ctx.client.relationships({
      urn: target.urn,
      direction: 'INCOMING',
      types,
      start,
      count: PAGE,
    })
    for (const r of page.relationships) referrers.add(r.entity)
    if (start + PAGE >= page.total) break
  }
  const proposals: MetadataProposal[] = []
  for (const urn of [...referrers].sort()) {
    const { entity } = ctx.registry.resolveUrn(urn)
    const aspects = entity.aspects.filter(
      (name) => (ctx.registry.findAspect(entity, name)?.relationships?.length ?? 0) > 0,
    )
    const stored = (await ctx.client.getEntities([urn], aspects)).get(urn)?.aspects ?? {}
    for (const [aspect, value] of Object.entries(stored)) {
      const edges = ctx.registry.edges(entity, aspect, value)
      if (!edges.some((e) => e.destination === target.urn)) continue
      proposals.push(rewrite(ctx, urn, aspect, value, target.urn))
    }
  }
  return proposals
}

function rewrite(
  ctx: CatalogContext,
  referrer: string,
  aspectName: string,
  value: AspectValue,
  urn: string,
): MetadataProposal {
  const stripped = without(value, urn) as AspectValue
  const ref = ctx.registry.resolveUrn(referrer)
  try {
    ctx.registry.validateAspect(ctx.registry.aspect(ref.entity, aspectName), stripped)
  } catch {
    return { entityType: ref.entity.name, entityUrn: referrer, aspectName, changeType: 'DELETE' }
  }
  return guardedSet(ref, aspectName, value, stripped)
}

/** `value` without `urn`: list members equal to it or records with a field equal to it go; such fields go. */
function without(value: unknown, urn: string): unknown {
  if (Array.isArray(value)) {
    return value
      .filter((v) => v !== urn && !(isRecord(v) && Object.values(v).includes(urn)))
      .map((v) => without(v, urn))
  }
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== urn)
        .map(([k, v]) => [k, without(v, urn)]),
    )
  }
  return value
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

/**
 * A hard delete of `target` with the references other entities' aspects hold to it (DataHub's
 * delete with `deleteReferences`), in one write; a `target` that does not exist is deleted already.
 */
export async function deleteWithReferences(ctx: CatalogContext, target: EntityRef): Promise<void> {
  if (!(await ctx.client.exists(target.urn))) return
  await writeWithReferences(ctx, target, [deleteEntity(target)])
}

/**
 * The removals of the references to `target` written with `proposals`, in one write; when another
 * write changed a referring aspect meanwhile (a lost race), the references are read and written again.
 */
export function writeWithReferences(
  ctx: CatalogContext,
  target: EntityRef,
  proposals: readonly MetadataProposal[],
): Promise<void> {
  return retryingRaces(async () => write(ctx, [...(await referenceRemovals(ctx, target)), ...proposals]))
}
