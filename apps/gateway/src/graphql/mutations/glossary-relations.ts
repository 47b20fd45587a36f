import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { writeWithReferences } from './entity-references.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { currentAspect, deleteEntity, resolveInput, write } from './support.js'

interface RelatedTermsInput {
  readonly urn: string
  readonly termUrns: readonly string[]
  readonly relationshipType: 'isA' | 'hasA'
}

const ASPECT = 'glossaryRelatedTerms'
/** `isA` terms are stored in `isRelatedTerms` (IsA edges), `hasA` terms in `hasRelatedTerms` (HasA). */
const LISTS = { isA: 'isRelatedTerms', hasA: 'hasRelatedTerms' } as const

/** The term being edited: an existing glossary term (DataHub's message otherwise). */
async function editedTerm(ctx: CatalogContext, urn: string) {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'glossaryTerm' || !(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(
      `Failed to update ${ref.urn}. ${ref.urn} either does not exist or is not a glossaryTerm.`,
    )
  }
  return ref
}

/** The URNs stored in one list of the term's `glossaryRelatedTerms` (undefined: no such list). */
function listOf(value: Record<string, unknown> | undefined, list: string): string[] | undefined {
  const members = value?.[list]
  return Array.isArray(members) ? members.map(String) : undefined
}

/**
 * DataHub's AddRelatedTermsResolver: every term must be another existing glossary term; those not
 * yet related are added to the list of `relationshipType`, one keyed PATCH so concurrent
 * additions are all kept. Nothing is written when all are related already.
 */
async function addRelatedTerms(
  _: unknown,
  { input }: { input: RelatedTermsInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const term = await editedTerm(ctx, input.urn)
  const urns: string[] = []
  for (const raw of input.termUrns) {
    const ref = resolveInput(ctx, raw)
    if (ref.urn === term.urn) {
      throw new InvalidInputError(`Failed to update ${term.urn}. Tried to create related term with itself.`)
    }
    if (ref.entity.name !== 'glossaryTerm') {
      throw new InvalidInputError(`Failed to update ${term.urn}. ${ref.urn} is not a glossaryTerm.`)
    }
    if (!(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Failed to update ${term.urn}. ${ref.urn} does not exist.`)
    }
    urns.push(ref.urn)
  }
  const list = LISTS[input.relationshipType]
  const existing = new Set(listOf(await currentAspect(ctx, term.urn, ASPECT), list) ?? [])
  const ops: PatchOp[] = [...new Set(urns)]
    .filter((urn) => !existing.has(urn))
    .map((urn) => ({ op: 'add', path: pointer(list, urn), value: urn }))
  if (ops.length > 0) await write(ctx, [patch(term, ASPECT, ops)])
  return true
}

/**
 * DataHub's RemoveRelatedTermsResolver: the term must have related terms of `relationshipType`;
 * the given ones are removed (absent ones are ignored), one keyed PATCH.
 */
async function removeRelatedTerms(
  _: unknown,
  { input }: { input: RelatedTermsInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const term = await editedTerm(ctx, input.urn)
  const urns = input.termUrns.map((u) => resolveInput(ctx, u).urn)
  const current = await currentAspect(ctx, term.urn, ASPECT)
  if (!current) throw new InvalidInputError(`Related Terms for this Urn do not exist: ${term.urn}`)
  const list = LISTS[input.relationshipType]
  if (!listOf(current, list)) {
    throw new InvalidInputError(
      'Failed to remove from GlossaryRelatedTerms as they do not exist for this Glossary Term',
    )
  }
  const ops: PatchOp[] = urns.map((urn) => ({ op: 'remove', path: pointer(list, urn) }))
  await write(ctx, [patch(term, ASPECT, ops)])
  return true
}

/**
 * DataHub's DeleteGlossaryEntityResolver: a hard delete of an existing term or node, and of every
 * reference to it (terms applied to assets, related terms, children's `parentNode`), in one write.
 */
async function deleteGlossaryEntity(
  _: unknown,
  { urn }: { urn: string },
  ctx: CatalogContext,
): Promise<boolean> {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'glossaryTerm' && ref.entity.name !== 'glossaryNode') {
    throw new InvalidInputError(`Failed to perform delete against glossary entity with urn ${ref.urn}`)
  }
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`This urn does not exist: ${ref.urn}`)
  }
  await writeWithReferences(ctx, ref, [deleteEntity(ref)])
  return true
}

export const glossaryRelationMutations = { addRelatedTerms, removeRelatedTerms, deleteGlossaryEntity }
