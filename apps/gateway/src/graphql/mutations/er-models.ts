import { createHash } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import type { EntitySource } from '../mappers/common.js'
import { ER_EDITABLE, ER_PROPERTIES } from '../mappers/er-model.js'
import { deleteWithReferences } from './entity-references.js'
import { nameOf, resolveInput, stampOf, typedRef, upsert, write } from './support.js'

interface PropertiesInput {
  readonly name: string
  readonly source: string
  readonly destination: string
  readonly relationshipFieldmappings?: ReadonlyArray<{
    readonly sourceField?: string | null
    readonly destinationField?: string | null
  }> | null
  readonly erModelRelationshipCardinality?: string | null
  readonly created?: boolean | null
  readonly createdAt?: number | null
  readonly createdBy?: string | null
}

interface UpdateInput {
  readonly properties?: PropertiesInput | null
  readonly editableProperties?: { readonly name?: string | null; readonly description: string } | null
}

/**
 * DataHub's id of a relationship: the MD5 of its name and its two datasets in string order
 * (so either direction gives the same relationship), as CreateERModelRelationshipResolver builds it.
 */
export function erModelRelationshipId(source: string, destination: string, name: string): string {
  const [low, high] = source > destination ? [destination, source] : [source, destination]
  const key = `{"Destination":"${low}","ERModelRelationName":"${name}","Source":"${high}"}`
  return createHash('md5').update(key, 'utf8').digest('hex')
}

/**
 * DataHub's cardinality of field mappings: one-to-one when neither side repeats a field, N to one
 * when only destination fields repeat, one to N when only source fields repeat, else N to N.
 */
function cardinalityOf(mappings: ReadonlyArray<{ sourceField: string; destinationField: string }>): string {
  const n = mappings.length
  const sources = new Set(mappings.map((m) => m.sourceField)).size
  const destinations = new Set(mappings.map((m) => m.destinationField)).size
  if (sources === n && destinations === n) return 'ONE_ONE'
  if (sources === n) return 'N_ONE'
  if (destinations === n) return 'ONE_N'
  return 'N_N'
}

/** A dataset of the input: a dataset URN of an existing dataset, else a 400. */
async function dataset(ctx: CatalogContext, urn: string): Promise<string> {
  const ref = typedRef(ctx, urn, 'dataset')
  if (!(await ctx.client.exists(ref.urn))) throw new InvalidInputError(`Dataset ${ref.urn} does not exist`)
  return ref.urn
}

/**
 * DataHub's ERModelRelationshipUpdateInputMapper: the properties written whole (field mappings,
 * their derived cardinality, created and last modified stamps), and the editable name and
 * description (blank ones left out). Field mappings are required (the model has no default).
 */
async function proposals(
  ctx: CatalogContext,
  rel: EntityRef,
  input: UpdateInput,
): Promise<MetadataProposal[]> {
  const out: MetadataProposal[] = []
  const stamp = stampOf(ctx)
  const p = input.properties
  if (p) {
    const mappings = (p.relationshipFieldmappings ?? []).map((m) => {
      if (!m.sourceField || !m.destinationField) {
        throw new InvalidInputError('Every field mapping needs a sourceField and a destinationField')
      }
      return { sourceField: m.sourceField, destinationField: m.destinationField }
    })
    if (mappings.length === 0)
      throw new InvalidInputError('An erModelRelationship needs at least one field mapping')
    const value: AspectValue = {
      name: nameOf(p.name, 'An erModelRelationship'),
      source: await dataset(ctx, p.source),
      destination: await dataset(ctx, p.destination),
      relationshipFieldMappings: mappings,
      cardinality: cardinalityOf(mappings),
      lastModified: stamp,
    }
    if (p.created === true) value.created = stamp
    else if (p.createdBy != null && p.createdAt) {
      value.created = { actor: resolveInput(ctx, p.createdBy).urn, time: p.createdAt }
    }
    out.push(upsert(rel, ER_PROPERTIES, value))
  }
  const editable = input.editableProperties
  if (editable) {
    const value: AspectValue = {}
    if (editable.name?.trim()) value.name = editable.name
    if (editable.description.trim()) value.description = editable.description
    out.push(upsert(rel, ER_EDITABLE, value))
  }
  return out
}

/**
 * DataHub's CreateERModelRelationshipResolver (EDIT_ENTITY or CREATE_ENTITY_ER_MODEL_RELATIONSHIP
 * on both datasets, checked by `authorizeMutation`): `urn:li:erModelRelationship:<md5 id>` with
 * its properties, written whole (the same name between the same datasets is the same relationship).
 */
async function createERModelRelationship(_: unknown, args: { input: UpdateInput }, ctx: CatalogContext) {
  const p = args.input.properties
  if (!p) throw new InvalidInputError('properties are required to create an erModelRelationship')
  const rel = typedRef(
    ctx,
    `urn:li:erModelRelationship:${erModelRelationshipId(p.source, p.destination, p.name)}`,
    'erModelRelationship',
  )
  await write(ctx, await proposals(ctx, rel, args.input))
  return { urn: rel.urn } satisfies EntitySource
}

/** DataHub's UpdateERModelRelationshipResolver (EDIT_ENTITY on it, or EDIT_ENTITY_DOCS for the editable part). */
async function updateERModelRelationship(
  _: unknown,
  args: { urn: string; input: UpdateInput },
  ctx: CatalogContext,
) {
  const rel = typedRef(ctx, args.urn, 'erModelRelationship')
  if (!(await ctx.client.exists(rel.urn))) throw new InvalidInputError(`${rel.urn} does not exist`)
  await write(ctx, await proposals(ctx, rel, args.input))
  return true
}

/**
 * `deleteERModelRelationship`: a hard delete (EDIT_ENTITY or DELETE_ENTITY on it). DataHub
 * declares this mutation without serving it.
 */
async function deleteERModelRelationship(_: unknown, args: { urn: string }, ctx: CatalogContext) {
  await deleteWithReferences(ctx, typedRef(ctx, args.urn, 'erModelRelationship'))
  return true
}

export const erModelMutations = {
  createERModelRelationship,
  updateERModelRelationship,
  deleteERModelRelationship,
}
