import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { type PatchOp, patch } from './patch.js'
import { creatorOwnership, currentAspect, resolveInput, upsert, write } from './support.js'

interface CreateGlossaryEntityInput {
  readonly id?: string | null
  readonly name: string
  readonly description?: string | null
  readonly parentNode?: string | null
}

interface UpdateParentNodeInput {
  readonly parentNode?: string | null
  readonly resourceUrn: string
}

/** The glossary entity types: their info aspect and DataHub's words for them. */
const KINDS = {
  glossaryTerm: { aspect: 'glossaryTermInfo', label: 'Glossary Term' },
  glossaryNode: { aspect: 'glossaryNodeInfo', label: 'Glossary Node' },
} as const

/** A parent must be an existing glossary node (DataHub's UpdateParentNodeResolver message). */
async function parentNode(ctx: CatalogContext, target: string, urn: string): Promise<string> {
  const ref = resolveInput(ctx, urn)
  if (ref.entity.name !== 'glossaryNode' || !(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(
      `Failed to update ${target}. ${ref.urn} either does not exist or is not a glossaryNode.`,
    )
  }
  return ref.urn
}

/**
 * DataHub's CreateGlossaryTermResolver / CreateGlossaryNodeResolver: refuses an existing id,
 * writes the info aspect (definition defaults to "", a term's source is INTERNAL) and makes the
 * creator a technical owner. Returns the new URN.
 */
async function create(
  ctx: CatalogContext,
  type: keyof typeof KINDS,
  input: CreateGlossaryEntityInput,
): Promise<string> {
  const kind = KINDS[type]
  const ref = resolveInput(ctx, `urn:li:${type}:${input.id ?? randomUUID()}`)
  if (await ctx.client.exists(ref.urn)) throw new InvalidInputError(`This ${kind.label} already exists!`)
  const info: AspectValue = { name: input.name, definition: input.description ?? '' }
  if (type === 'glossaryTerm') info.termSource = 'INTERNAL'
  if (input.parentNode != null) info.parentNode = await parentNode(ctx, ref.urn, input.parentNode)
  await write(ctx, [upsert(ref, kind.aspect, info), upsert(ref, 'ownership', creatorOwnership(ctx))])
  return ref.urn
}

/** The info aspect of an existing glossary entity, or DataHub's refusal. */
async function glossaryInfo(ctx: CatalogContext, ref: EntityRef, what: string): Promise<string> {
  const kind = KINDS[ref.entity.name as keyof typeof KINDS]
  if (!kind) {
    throw new InvalidInputError(`Failed to update ${what}. Unsupported resource type ${ref.urn} provided.`)
  }
  if (!(await currentAspect(ctx, ref.urn, kind.aspect))) {
    throw new InvalidInputError(`Info for this ${kind.label} does not yet exist!`)
  }
  return kind.aspect
}

/**
 * DataHub's UpdateParentNodeResolver: moves a term or node under an existing node, or to the
 * root when `parentNode` is null. One PATCH of the info aspect's `parentNode`.
 */
async function updateParentNode(
  _: unknown,
  { input }: { input: UpdateParentNodeInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const ref = resolveInput(ctx, input.resourceUrn)
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(`Failed to update ${ref.urn}. ${ref.urn} does not exist.`)
  }
  const parent = input.parentNode != null ? await parentNode(ctx, ref.urn, input.parentNode) : null
  const aspect = await glossaryInfo(ctx, ref, 'parentNode')
  const op: PatchOp = parent
    ? { op: 'add', path: '/parentNode', value: parent }
    : { op: 'remove', path: '/parentNode' }
  await write(ctx, [patch(ref, aspect, [op])])
  return true
}

export const glossaryMutations = {
  createGlossaryTerm: (_: unknown, { input }: { input: CreateGlossaryEntityInput }, ctx: CatalogContext) =>
    create(ctx, 'glossaryTerm', input),
  createGlossaryNode: (_: unknown, { input }: { input: CreateGlossaryEntityInput }, ctx: CatalogContext) =>
    create(ctx, 'glossaryNode', input),
  updateParentNode,
}
